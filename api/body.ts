import type { z } from '@hono/zod-openapi';
import { AppError } from '../domain/errors';

/** Parses and validates a JSON text, answering 400 problems like the route validators do. */
export function parseJsonBody<T extends z.ZodType>(text: string, schema: T): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('malformed-request', 400, 'Request body is not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ path: ['json', ...i.path.map(String)].join('.'), message: i.message }));
    throw new AppError('validation-failed', 400, `Invalid request json: ${errors[0]?.path}: ${errors[0]?.message}`, {
      errors,
    });
  }
  return parsed.data;
}
