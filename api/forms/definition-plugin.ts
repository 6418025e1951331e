// Forms on the definition route factory: a form's kind, submission handling and embed origins
// at creation, its embed origins on PATCH, whether a clone copies them, and its own columns in the view.
import { z } from '@hono/zod-openapi';
import type { formDefinitions } from '../../db/schema/forms';
import { sanitiseEmbedOrigins } from '../../domain/forms/embed-origins';
import { FORM_KINDS } from '../../domain/forms/form-kinds';
import { OUTBOUND_ROLES } from '../../domain/forms/outbound-roles';
import { originProblems, setEmbedOrigins } from '../../services/forms/embed-origins';
import { formDefinitionCapability } from '../../services/forms/form-definitions';
import type { DefinitionApi } from '../definitions/plugin';
import { text } from '../vocabulary';

/** An origin as a browser sends it (scheme, host, port; no path), the frame-ancestors input. */
const origin = text({ max: 300 }).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'must be an origin such as https://example.com (scheme, host and port only, lower case)');

const ORIGINS_RULE =
  'Kept: `https://host[:port]`, and `http://localhost[:port]` or `http://127.0.0.1[:port]` for development; any other origin is dropped ' +
  'and answered as a warning in `problems` (path `allowedEmbedOrigins.<i>`).';

const createFields = {
  kind: z.enum(FORM_KINDS).openapi({ description: 'INBOUND (embedded, submitted by anyone holding the embed token) or OUTBOUND (sent to a recipient)' }),
  submissionHandling: text({ max: 100 }).optional().openapi({ description: 'How submissions are handled (used by the intake work)' }),
  allowedEmbedOrigins: z.array(origin).max(50).optional().openapi({ description: `Origins allowed to frame the embed page. ${ORIGINS_RULE}` }),
};

const patchFields = {
  allowedEmbedOrigins: z.array(origin).max(50).optional().openapi({
    description:
      `Replaces the origins allowed to frame the embed page, in any status (the published form's page uses them from its next load; \`[]\`: framed by nobody). ${ORIGINS_RULE} ` +
      'Audited as `embed_origins_set`; neither the edit lock nor the optimistic-lock counter is involved (they guard the draft).',
  }),
};

const cloneFields = {
  copyEmbedOrigins: z.boolean().optional().openapi({ description: "Copy the source's `allowedEmbedOrigins` (default false: the clone is framed by nobody until its origins are set)" }),
};

const viewFields = {
  kind: z.enum(FORM_KINDS),
  submissionHandling: z.string().nullable(),
  outboundRoles: z.record(z.string(), z.enum(OUTBOUND_ROLES)).openapi({ description: 'Per-field roles of an outbound form (outboundRolesJson)' }),
  allowedEmbedOrigins: z.array(z.string()),
  embedKeyVersion: z.number().int().openapi({ description: 'Embed token revocation counter' }),
};

export const formDefinitionApi: DefinitionApi<typeof formDefinitions, typeof createFields, typeof viewFields> = {
  capability: formDefinitionCapability,
  basePath: '/api/form-definitions',
  tag: 'Forms: definitions',
  componentPrefix: 'Form',
  createFields,
  columnsOf: (body) => ({
    kind: body.kind,
    submissionHandling: body.submissionHandling ?? null,
    allowedEmbedOrigins: sanitiseEmbedOrigins(body.allowedEmbedOrigins ?? []).origins,
  }),
  createProblems: (body) => originProblems(body.allowedEmbedOrigins ?? []),
  patchFields,
  patch: (deps, actor, id, fields) => setEmbedOrigins(deps, actor, id, (fields as { allowedEmbedOrigins: string[] }).allowedEmbedOrigins),
  cloneFields,
  viewFields,
  viewOf: (row) => ({
    kind: row.kind,
    submissionHandling: row.submissionHandling,
    outboundRoles: row.outboundRolesJson,
    allowedEmbedOrigins: row.allowedEmbedOrigins,
    embedKeyVersion: row.embedKeyVersion,
  }),
};
