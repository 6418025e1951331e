// Spec rules 1-2, after the rate limits the route applies: the honeypot, then cleaning and
// validation against the published version, then one transaction writing the SUBMITTED instance
// and its intake start row.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { AppError } from '../../domain/errors';
import { originAllowed } from '../../domain/forms/embed-origins';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import { validateSubmission } from '../../domain/forms/submission';
import type { Settings } from '../../domain/settings';
import { resolveEmbeddedForm } from './embed-tokens';
import { insertSubmittedInstance } from './submit-instance';

export interface EmbedSubmission {
  data: unknown;
  processRef?: string;
  _gotcha?: string;
}

/** The published form of a token, as the public render route shows it. */
export async function readEmbeddedForm(deps: { db: Db; settings: Settings }, token: string) {
  const { definition, version } = await resolveEmbeddedForm(deps, token);
  const schema = repairFormSchema(version.schema);
  return { code: definition.code, version: version.version, title: schema.title, schema };
}

/**
 * The embed SDK's question before it frames a form: may a page on `origin` show it? The token's
 * 404 is the read's; the origins are no secret (the page's frame-ancestors header lists them).
 */
export async function checkEmbedFrame(deps: { db: Db; settings: Settings }, token: string, origin: string) {
  const { definition } = await resolveEmbeddedForm(deps, token);
  return originAllowed(definition.allowedEmbedOrigins, origin) ? { allowed: true as const } : { allowed: false as const, reason: 'origin-not-allowed' as const };
}

/** Paths of submission problems, led by the body's `data`. */
export const submissionErrors = (errors: { path: string; message: string }[]) =>
  errors.map((e) => ({ path: e.path === '' ? 'data' : `data.${e.path}`, message: e.message }));

export async function submitEmbedded(deps: { db: Db; settings: Settings }, token: string, body: EmbedSubmission): Promise<{ id: string }> {
  const { definition, version } = await resolveEmbeddedForm(deps, token);
  // A filled honeypot is a bot: it gets what a person gets, and nothing is kept.
  if (typeof body._gotcha === 'string' && body._gotcha.trim() !== '') return { id: randomUUID() };
  const result = validateSubmission(repairFormSchema(version.schema), body.data);
  if (!result.ok) {
    const errors = submissionErrors(result.errors);
    throw new AppError('validation-failed', `Invalid submission: ${errors[0]!.path}: ${errors[0]!.message}`, { errors });
  }
  const instance = await deps.db.transaction((tx) =>
    insertSubmittedInstance(tx, {
      tenantId: definition.tenantId,
      definitionId: definition.id,
      definitionCode: definition.code,
      definitionVersion: version.version,
      data: result.data,
      origin: 'EMBED',
      context: body.processRef ? { processRef: body.processRef } : {},
    }),
  );
  return { id: instance.id };
}
