// The console (issue 21 §2): server-rendered pages under /console, each action calling the same
// service as the JSON API route it mirrors. Identity as the API reads it; the viewer and caller
// of the path's tenant; the CSRF defence on every POST; failures as pages, never problem+json.
import { Hono, type MiddlewareHandler } from 'hono';
import { userIdentity } from '../../api/middleware/identity';
import { mountApproveRequests } from './access/approve-requests';
import { mountCandidateGroups } from './access/candidate-groups';
import { mountInvitationAccept } from './access/invitation-accept';
import { mountInvitations } from './access/invitations';
import { mountMemberGrants } from './access/member-grants';
import { mountMembers } from './access/members';
import { mountMyAccess } from './access/my-access';
import { serveConsoleScript } from './assets';
import { consoleCsrf, consoleFrame, consoleTenant } from './console-middleware';
import type { ConsoleEnv } from './env';
import { consoleNotFound, consoleOnError } from './error-pages';
import { landingPage } from './landing';
import { mountOperatorPages } from './operator-pages';
import { recordRoutes } from './records/routes';

/** The API's identity middleware, on the console's env (whose variables include the API's). */
const identity = userIdentity as unknown as MiddlewareHandler<ConsoleEnv>;

export function consoleRoutes() {
  const app = new Hono<ConsoleEnv>();
  app.onError(consoleOnError);
  // Scripts first: they carry no identity and answer before any middleware below runs.
  app.get('/console/assets/:file', serveConsoleScript);
  // `/console/*` covers `/console` itself too.
  app.use('/console/*', consoleFrame, identity, consoleCsrf);
  app.get('/console', landingPage);
  app.get('/console/', landingPage);
  mountInvitationAccept(app);

  app.use('/console/:tenantId/*', consoleTenant);
  app.get('/console/:tenantId', (c) => c.redirect(`${c.req.path.replace(/\/$/, '')}/access/my-access`, 303));
  app.get('/console/:tenantId/access', (c) => c.redirect(`${c.req.path.replace(/\/$/, '')}/my-access`, 303));
  mountMyAccess(app);
  mountApproveRequests(app);
  mountMembers(app);
  mountMemberGrants(app);
  mountCandidateGroups(app);
  mountInvitations(app);
  mountOperatorPages(app);
  app.route('/', recordRoutes());
  app.all('/console/*', consoleNotFound);
  return app;
}
