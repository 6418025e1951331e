// Forms on the definition lifecycle: FM- codes, the FORMS guard, the form tables and rules.
import { formDefinitionQueries } from '../../db/queries/form-definitions';
import type { formDefinitions } from '../../db/schema/forms';
import { formDefinitionRules } from '../../domain/forms/definition-rules';
import type { DefinitionCapability } from '../definitions/capability';

export const formDefinitionCapability: DefinitionCapability<typeof formDefinitions> = {
  code: 'FORMS',
  codePrefix: 'FM-',
  noun: 'Form definition',
  queries: formDefinitionQueries,
  rules: formDefinitionRules,
  lockTtlMinutes: (settings) => settings['forms.lock-ttl-minutes'],
  // A clone is a new form: its embed tokens start over (embedKeyVersion keeps its default), and
  // it is framed by nobody unless the clone asks for the source's origins (`copyEmbedOrigins`):
  // a copy made for another site must not quietly open itself to the first one's.
  cloneColumns: (source, options = {}) => ({
    kind: source.kind,
    submissionHandling: source.submissionHandling,
    outboundRolesJson: source.outboundRolesJson,
    allowedEmbedOrigins: options.copyEmbedOrigins === true ? source.allowedEmbedOrigins : [],
  }),
};
