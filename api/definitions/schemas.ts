// Schemas of the definition routes, built per capability (component names carry its prefix).
import { z } from '@hono/zod-openapi';
import { DEFINITION_STATUSES, NAME_MAX } from '../../domain/definitions/lifecycle';
import { definitionCodePattern } from '../../domain/definitions/definition-code';
import { boundedJson, int32, int32Param, int64Param, text } from '../vocabulary';
import { uuidParam } from '../openapi';

export const PAGE_SIZE_CAP = 200;
export const DEFAULT_PAGE_SIZE = 50;

/** A draft's bounds: far above any real form, far below what would hurt the database. */
export const DRAFT_BOUNDS = { maxBytes: 256 * 1024, maxDepth: 32, maxNodes: 20_000, maxKeyLength: 200 } as const;
/** Request bodies are cut off on the stream above this (a draft at its bound, escaped, fits). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const iso = z.string().openapi({ format: 'date-time' });
/** Like the phone list: a larger page asked for is served at the cap. */
const pageSize = int32Param()
  .default(DEFAULT_PAGE_SIZE)
  .transform((n) => Math.min(n, PAGE_SIZE_CAP))
  .openapi({ type: 'integer', description: `Page size, default ${DEFAULT_PAGE_SIZE}; values above ${PAGE_SIZE_CAP} are served as ${PAGE_SIZE_CAP}` });

export const SchemaProblem = z
  .object({
    path: z.string().openapi({ description: "Dotted path in the schema; '' for the whole schema" }),
    level: z.enum(['error', 'warning']),
    message: z.string(),
  })
  .openapi('SchemaProblem', { description: 'Error-level problems block check-in, sign-off and publish.' });

export const DefinitionPath = z.object({ id: uuidParam() });
export const VersionPath = z.object({
  id: uuidParam(),
  v: int32Param().openapi({ param: { name: 'v', in: 'path' }, example: 1, type: 'integer' }),
});

export function definitionSchemas(
  prefix: string,
  codePrefix: string,
  createFields: z.ZodRawShape,
  viewFields: z.ZodRawShape,
  /** A capability's own PATCH fields and clone options. */
  own: { patch?: z.ZodRawShape; clone?: z.ZodRawShape } = {},
) {
  const name = (suffix: string) => `${prefix}${suffix}`;
  const draftSchema = boundedJson(DRAFT_BOUNDS).openapi({
    description: `Free-form JSON (not null), at most ${DRAFT_BOUNDS.maxBytes} bytes serialised and ${DRAFT_BOUNDS.maxDepth} levels deep`,
  });
  const definitionName = text({ max: NAME_MAX });

  const summaryFields = {
    id: z.string().uuid(),
    code: z.string().openapi({ example: `${codePrefix}K7QX05MAR26` }),
    name: z.string(),
    status: z.enum(DEFINITION_STATUSES),
    version: z.number().int().openapi({ description: 'Optimistic-lock counter: send it with PUT .../draft; every step moves it' }),
    publishedVersion: z.number().int().nullable().openapi({ description: 'The version consumers resolve' }),
    lockedBy: z.string().nullable().openapi({ description: 'Advisory edit lock holder' }),
    lockedAt: iso.nullable(),
    lastTestedAt: iso.nullable().openapi({ description: 'Mirrors the latest sign-off' }),
    createdBy: z.string(),
    createdAt: iso,
    updatedAt: iso,
    ...viewFields,
  };
  const Summary = z.object(summaryFields).openapi(name('DefinitionSummary'));
  const Definition = z
    .object({
      ...summaryFields,
      draftSchema: z.unknown().openapi({ description: 'The working draft, repaired on read' }),
      problems: z.array(SchemaProblem).openapi({ description: 'The problems of the stored draft (errors block check-in, sign-off and publish)' }),
    })
    .openapi(name('Definition'));
  const Saved = z
    .object({ ...summaryFields, draftSchema: z.unknown(), problems: z.array(SchemaProblem) })
    .openapi(name('DefinitionSaved'), { description: 'The definition and the problems of its draft (stored whatever they are)' });

  const versionFields = {
    id: z.string().uuid(),
    definitionId: z.string().uuid(),
    version: z.number().int(),
    checkedInBy: z.string(),
    checkedInAt: iso,
    signedOffAt: iso.nullable(),
    signedOffBy: z.string().nullable(),
  };
  const VersionSummary = z.object(versionFields).openapi(name('VersionSummary'));
  const Version = z
    .object({ ...versionFields, schema: z.unknown().openapi({ description: 'Immutable; repaired on read' }) })
    .openapi(name('Version'));

  const AuditEvent = z
    .object({
      id: z.number().int(),
      definitionId: z.string().uuid(),
      action: z.string().openapi({ example: 'checked_in' }),
      detail: z.record(z.string(), z.unknown()),
      actor: z.string(),
      at: iso,
    })
    .openapi(name('AuditEvent'));

  return {
    Summary,
    Definition,
    Saved,
    Version,
    VersionSummary,
    AuditEvent,
    Page: z
      .object({
        items: z.array(Summary),
        nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next (older) page; null on the last page' }),
      })
      .openapi(name('DefinitionPage')),
    AuditPage: z
      .object({
        items: z.array(AuditEvent),
        nextBefore: z.number().int().nullable().openapi({ description: 'Pass as `before` for older events; null on the last page' }),
      })
      .openapi(name('AuditPage')),
    CreateBody: z
      .object({ name: definitionName, draftSchema: draftSchema.optional(), ...createFields })
      .strict()
      .openapi(name('DefinitionCreate'), { description: 'Without draftSchema the draft starts as the empty schema' }),
    DraftBody: z
      .object({
        draftSchema,
        version: int32({ min: 1 }).openapi({ description: "The definition's counter as read; 409 version-conflict when it moved" }),
      })
      .strict()
      .openapi(name('DraftSave')),
    RenameBody: own.patch
      ? z
          .object({ name: definitionName.optional(), ...own.patch })
          .strict()
          .refine((body) => Object.values(body).some((v) => v !== undefined), 'must carry `name` or another field to change')
          .openapi(name('DefinitionPatch'))
      : z.object({ name: definitionName }).strict().openapi(name('DefinitionRename')),
    CloneBody: z
      .object({
        version: int32({ min: 1 }).optional().openapi({ description: 'Default: the latest checked-in version' }),
        name: definitionName.optional().openapi({ description: 'Default: the source name + " (copy)"' }),
        ...own.clone,
      })
      .strict()
      .openapi(name('DefinitionClone')),
    CodePath: z.object({
      code: z
        .string()
        .regex(definitionCodePattern(codePrefix), `must be a ${codePrefix} code such as ${codePrefix}K7QX05MAR26`)
        .openapi({ param: { name: 'code', in: 'path' }, example: `${codePrefix}K7QX05MAR26` }),
    }),
    ListQuery: z.object({
      status: z.enum(DEFINITION_STATUSES).optional(),
      limit: pageSize,
      cursor: text({ max: 200 }).optional().openapi({ description: '`nextCursor` of the previous page' }),
    }),
    AuditQuery: z.object({
      limit: pageSize,
      before: int64Param().optional(),
    }),
  };
}

export type DefinitionSchemas = ReturnType<typeof definitionSchemas>;
