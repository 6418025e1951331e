// Creating a definition (and cloning one, which creates one): a fresh code per attempt, retried
// when the tenant has it already; the row and its `created` audit event in one transaction.
import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/client';
import { isUniqueViolation, violatedConstraint } from '../../db/errors';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { generateDefinitionCode } from '../../domain/definitions/definition-code';
import { cloneName, cloneSource } from '../../domain/definitions/lifecycle';
import type { SchemaProblem } from '../../domain/definitions/schema-rules';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from './capability';
import { definitionNotFound, nowOf } from './run-step';

/** Codes have ~10^6 values per prefix and day; ten collisions in a row mean something else is wrong. */
const CODE_ATTEMPTS = 10;

export interface CreateInput<D extends DefinitionsTable> {
  name: string;
  /** Absent: the capability's empty schema (its repair of nothing). */
  draftSchema?: unknown;
  /** The capability's own columns (a form's kind, ...). */
  columns: Partial<D['$inferInsert']>;
}

export interface Created<D extends DefinitionsTable> {
  definition: RowOf<D>;
  problems: SchemaProblem[];
}

async function insertWithFreshCode<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  input: CreateInput<D> & { draftSchema: unknown },
  audit: { detail: Record<string, unknown>; alongside?: (tx: Tx, row: RowOf<D>) => Promise<void> },
): Promise<RowOf<D>> {
  const now = nowOf(deps);
  const random = deps.random ?? randomInt;
  for (let attempt = 1; ; attempt++) {
    const code = generateDefinitionCode(cap.codePrefix, now, random);
    try {
      return await deps.db.transaction(async (tx) => {
        const row = await cap.queries.insert(tx, {
          values: {
            tenantId: actor.tenantId,
            code,
            name: input.name,
            draftSchema: input.draftSchema,
            createdBy: actor.userId,
            createdAt: now,
            updatedAt: now,
          },
          columns: input.columns,
        });
        await cap.queries.insertAudit(tx, { tenantId: actor.tenantId, definitionId: row.id, actor: actor.userId, action: 'created', detail: { code, ...audit.detail } });
        await audit.alongside?.(tx, row);
        return row;
      });
    } catch (err) {
      const collided = isUniqueViolation(err) && violatedConstraint(err)?.endsWith('_code_idx');
      if (!collided || attempt >= CODE_ATTEMPTS) throw err;
    }
  }
}

/** A new DRAFT definition with a generated code; the draft's problems are answered, never refused. */
export async function createDefinition<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  input: CreateInput<D>,
): Promise<Created<D>> {
  const draftSchema = input.draftSchema === undefined ? cap.rules.repair(undefined) : input.draftSchema;
  const definition = await insertWithFreshCode(deps, cap, actor, { ...input, draftSchema }, { detail: {} });
  return { definition, problems: cap.rules.check(draftSchema) };
}

/** A new DRAFT definition whose draft is a version of another (the latest unless one is named). */
export async function cloneDefinition<D extends DefinitionsTable>(
  deps: DefinitionDeps,
  cap: DefinitionCapability<D>,
  actor: Actor,
  id: string,
  input: { version?: number; name?: string; options?: Record<string, unknown> },
): Promise<Created<D>> {
  const { tenantId } = actor;
  const source = await cap.queries.find(deps.db, { tenantId, id });
  if (!source) throw definitionNotFound(cap);
  const found =
    input.version === undefined
      ? await cap.queries.latestVersion(deps.db, { tenantId, definitionId: id })
      : await cap.queries.findVersion(deps.db, { tenantId, definitionId: id, version: input.version });
  const from = cloneSource(input.version, found);
  const clonedFrom = { id: source.id, code: source.code, version: from.version };
  const definition = await insertWithFreshCode(
    deps,
    cap,
    actor,
    { name: cloneName(source.name, input.name), draftSchema: from.schema, columns: cap.cloneColumns(source, input.options ?? {}) },
    {
      detail: { clonedFrom },
      alongside: (tx, row) =>
        cap.queries.insertAudit(tx, { tenantId, definitionId: id, actor: actor.userId, action: 'cloned', detail: { to: { id: row.id, code: row.code }, version: from.version } }),
    },
  );
  return { definition, problems: cap.rules.check(from.schema) };
}
