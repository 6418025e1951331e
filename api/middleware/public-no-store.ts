import { createMiddleware } from 'hono/factory';

/**
 * The public API answers for whoever holds a link (a signer's PDF and values, a respondent's
 * form): no browser or shared cache may keep those answers, errors included, unless a route set
 * its own policy.
 */
export const publicNoStore = createMiddleware(async (c, next) => {
  await next();
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
});
