// GET /console: straight to the first tenant's Manage My Access (a tenant the person belongs to
// before one an operator merely administers), or a page saying there is none yet.
import type { Context } from 'hono';
import { isPlatformOperator } from '../../services/access/callers';
import { listViewerTenants } from '../../services/access/user-tenants';
import type { ConsoleEnv } from './env';
import { accessPath } from './navigation';
import { barePage } from './shell';

export async function landingPage(c: Context<ConsoleEnv>): Promise<Response> {
  const { db, settings } = c.get('deps');
  const userId = c.get('userId');
  const isOperator = await isPlatformOperator(db, { userId, operatorGroups: settings['access.operator-groups'] });
  const { tenants } = await listViewerTenants(db, { userId, isOperator, limit: 200 });
  const first = tenants.find((t) => t.isMember) ?? tenants[0];
  if (first) {
    c.header('Cache-Control', 'no-store');
    return c.redirect(accessPath(first.id, 'my-access'), 303);
  }
  return barePage(c, {
    title: 'You belong to no tenant yet',
    body: (
      <>
        <p>You are signed in as {userId}, but no tenant of this platform has you as a member yet.</p>
        <p>Ask an owner of your organisation's tenant for an invitation link, and open it while signed in.</p>
      </>
    ),
  });
}
