import type { Context } from 'hono';
import { isUniqueViolation } from '../../db/errors';
import { findLocation, getCalendar } from '../../db/queries/calendars';
import { CalendarEngineError } from '../../domain/calendar/index';
import { AppError, conflict, notFound } from '../../domain/errors';
import type { CodeWithStatus } from '../../domain/error-codes';
import { capabilityGuard } from '../middleware/capability-guard';
import { basicOrGatewayIdentity } from '../middleware/basic-auth';
import { tenantIdentity } from '../middleware/identity';
import { fieldErrors } from '../body';
import type { AppEnv } from '../env';

/** HTTP Basic (API client) or gateway identity, then the tenant, then the capability layer. */
export const guarded = (code: 'CALENDAR' | 'SLA', mode: 'read' | 'write') => [
  basicOrGatewayIdentity,
  tenantIdentity,
  capabilityGuard(code, mode),
];

export async function requireCalendar(c: Context<AppEnv>, code: string) {
  const row = await getCalendar(c.get('deps').db, c.get('caller').tenantId, code);
  if (!row) throw notFound(`Calendar ${code}`, 'calendar-not-found');
  return row;
}

export async function requireLocation(c: Context<AppEnv>, code: string, loc: string) {
  const found = await findLocation(c.get('deps').db, c.get('caller').tenantId, code, loc);
  if (!found) throw notFound(`Calendar ${code}`, 'calendar-not-found');
  if (!found.location) throw notFound(`Location ${loc}`, 'location-not-found');
  return found.location;
}

/** A unique violation from `write` becomes 409 `code`; anything else propagates. */
export async function uniqueOr409<T>(write: () => Promise<T>, code: CodeWithStatus<409>, detail: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(code, detail);
    throw err;
  }
}

/**
 * Engine input errors carry field paths relative to the request part; they are answered like
 * validation failures (`errors: [{ path: 'query.to', message }]`), keeping the engine's code.
 */
export async function withFieldPaths<T>(target: 'json' | 'query', run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof CalendarEngineError && err.issues.length > 0) {
      throw new AppError(err.code, err.detail, { errors: fieldErrors(target, err.issues) });
    }
    throw err;
  }
}
