import { createHash, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { AppError } from '../../domain/errors';
import type { AppEnv } from '../env';
import { accepts } from '../openapi-security';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time equality of two secrets of any length (both are hashed to 32 bytes first). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Server-to-server routes (`/api/internal/**`, `/internal/**`): header `X-Internal-Key` must equal
 * setting `internal.key`, compared in constant time.
 * - blank setting: every call is refused with 403 `internal-api-disabled` (fail-closed; no key
 *   could ever be right, so this is not a credentials problem the caller can fix);
 * - missing or wrong header: 401 `internal-key-invalid`.
 * The key is never logged (workers/logger.ts redacts the header).
 */
export const internalKey = accepts(createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.get('deps').settings['internal.key'];
  if (expected === undefined || expected.trim() === '') {
    throw new AppError('internal-api-disabled', 'Internal routes are disabled: no internal key is configured');
  }
  const given = c.req.header('X-Internal-Key');
  if (given === undefined || given === '' || !sameSecret(given, expected)) {
    throw new AppError('internal-key-invalid', 'Header X-Internal-Key is missing or wrong');
  }
  await next();
}), ['InternalKey']);
