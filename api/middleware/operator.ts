import { createMiddleware } from 'hono/factory';
import { forbidden } from '../../domain/errors';
import { isPlatformOperator } from '../../services/access/callers';
import type { AppEnv } from '../env';

/** Catalog rights: platform operators only (members of an `access.operator-groups` group). */
export const operatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  const { db, settings } = c.get('deps');
  if (!(await isPlatformOperator(db, { userId: c.get('userId'), operatorGroups: settings['access.operator-groups'] }))) {
    throw forbidden('operator-required', 'Only a platform operator may change the capability catalog');
  }
  await next();
});
