import { reachableSigner } from '../services/signatures/signer-access';
import { createRouter } from '../api/openapi';
import { consoleRoutes } from './console/routes';
import { embedPageRoutes } from './forms/embed-page-routes';
import { faviconRoutes } from './hosted/favicon';
import { respondPageRoutes } from './forms/respond-page-routes';
import { signPageRoutes } from './signatures/sign-page-routes';

/** The server-rendered pages: the hosted embed, respond and sign pages, the embed SDK, and the console. */
export function webRoutes() {
  const app = createRouter();
  app.route('/', faviconRoutes());
  app.route('/', embedPageRoutes());
  app.route('/', respondPageRoutes());
  // The page opens exactly where the public session would: the same loader, without marking it opened.
  app.route(
    '/',
    signPageRoutes(async ({ db, clock }, token) => {
      const signer = await reachableSigner(db, token, clock?.() ?? new Date());
      return signer && { codeFirst: signer.recipient.verify === 'EMAIL_OTP' };
    }),
  );
  app.route('/', consoleRoutes());
  return app;
}
