import { CalendarEngineError } from '../../domain/calendar/index';
import { AppError } from '../../domain/errors';
import { fieldErrors } from '../body';

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
