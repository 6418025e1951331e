// Signatures on the definition route factory: no create fields or view fields of their own (the
// signing schema is the draft).
import { signatureDefinitionCapability } from '../../services/signatures/signature-definitions';
import type { signatureDefinitions } from '../../db/schema/signatures';
import type { DefinitionApi } from '../definitions/plugin';

const none = {};

export const signatureDefinitionApi: DefinitionApi<typeof signatureDefinitions, typeof none, typeof none> = {
  capability: signatureDefinitionCapability,
  basePath: '/api/signature-definitions',
  tag: 'Signatures: definitions',
  componentPrefix: 'Signature',
  createFields: none,
  columnsOf: () => ({}),
  viewFields: none,
  viewOf: () => ({}),
};
