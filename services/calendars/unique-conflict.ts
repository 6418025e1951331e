import { isUniqueViolation } from '../../db/errors';
import type { CodeWithStatus } from '../../domain/error-codes';
import { conflict } from '../../domain/errors';

/** A unique violation from `write` becomes 409 `code`; anything else propagates. */
export async function uniqueOr409<T>(write: () => Promise<T>, code: CodeWithStatus<409>, detail: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(code, detail);
    throw err;
  }
}
