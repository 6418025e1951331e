import { createMiddleware } from 'hono/factory';
import { isOperator } from '../../db/queries/membership';
import { forbidden } from '../../domain/errors';
import type { AppEnv } from '../env';

/** Catalog rights: platform operators only (members of an `access.operator-groups` group). */
export const operatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  const { db, settings } = c.get('deps');
  if (!(await isOperator(db, c.get('userId'), settings['access.operator-groups']))) {
    throw forbidden('operator-required', 'Only a platform operator may change the capability catalog');
  }
  await next();
});
