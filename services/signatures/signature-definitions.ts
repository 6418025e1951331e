// Signatures on the definition lifecycle: SG- codes (the spec gives no prefix), the SIGNATURES
// guard, the signature tables and the signing-schema rules.
import { signatureDefinitionQueries } from '../../db/queries/signature-definitions';
import type { signatureDefinitions } from '../../db/schema/signatures';
import { signatureDefinitionRules } from '../../domain/signatures/definition-rules';
import type { DefinitionCapability } from '../definitions/capability';

export const signatureDefinitionCapability: DefinitionCapability<typeof signatureDefinitions> = {
  code: 'SIGNATURES',
  codePrefix: 'SG-',
  noun: 'Signature definition',
  queries: signatureDefinitionQueries,
  rules: signatureDefinitionRules,
  lockTtlMinutes: (settings) => settings['signatures.lock-ttl-minutes'],
  // A signature definition has no columns beyond the lifecycle's.
  cloneColumns: () => ({}),
};
