import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ListSelector } from '../../db/queries/documents';
import { badRequest } from '../../domain/errors';
import type { UserCaller } from '../../services/documents/registry-caller';
import type { AppEnv } from '../env';
import type { ListQuery } from './schemas';

/** The identity middleware's user, with the request id the registry forwards and logs. */
export const registryCaller = (c: Context<AppEnv>): UserCaller => ({ kind: 'user', ...c.get('caller'), requestId: c.get('requestId') });

/** `If-Match: "3"` (or `3`, or `W/"3"`) → 3; absent → undefined; anything else is a 400. */
export function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (!m) throw badRequest('malformed-header', 'If-Match must carry the document version, e.g. "3"', { header: 'If-Match' });
  return Number(m[1]);
}

/** Exactly one selector: processRef, taskId, or capability together with ownerEntityId. */
export function listSelector(q: z.output<typeof ListQuery>): ListSelector {
  const chosen = [q.processRef !== undefined, q.taskId !== undefined, q.capability !== undefined || q.ownerEntityId !== undefined];
  if (chosen.filter(Boolean).length !== 1) {
    throw badRequest('list-selector-required', 'Give exactly one of processRef, taskId, or capability with ownerEntityId');
  }
  if (q.processRef !== undefined) return { processRef: q.processRef };
  if (q.taskId !== undefined) return { taskId: q.taskId };
  if (q.capability === undefined || q.ownerEntityId === undefined) {
    throw badRequest('list-selector-required', 'capability and ownerEntityId go together');
  }
  return { capability: q.capability, ownerEntityId: q.ownerEntityId };
}
