// The page an invitation link opens: the signed-in person accepts it with one button, through the
// service behind POST /api/invitations/{token}/accept, and lands in the tenant's console. The
// token is the path's `:token`, so the request log redacts it.
import type { Context, Hono, Next } from 'hono';
import { acceptInvitation } from '../../../services/access/invitations';
import { AppError } from '../../../domain/errors';
import type { ConsoleEnv } from '../env';
import { accessPath } from '../navigation';
import { refusalText } from '../refusals';
import { barePage, csrfInput, notice } from '../shell';

const PATH = '/console/invitations/:token';
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** The absolute link of an invitation token, on the origin the owner is using. */
export function invitationLink(c: Context<ConsoleEnv>, token: string): string {
  const url = new URL(c.req.url);
  if (c.req.header('X-Forwarded-Proto') === 'https') url.protocol = 'https:';
  return `${url.origin}/console/invitations/${token}`;
}

function page(c: Context<ConsoleEnv>, message?: { text: string; status: number }) {
  const path = c.req.path;
  return barePage(c, {
    title: 'Join a tenant',
    status: message?.status ?? 200,
    body: (
      <>
        <p>You were invited to join a tenant of this platform. Accept to become a member (or an owner, if the invitation says so).</p>
        <p>You are signed in as {c.get('userId')}. An invitation works once.</p>
        {message ? notice({ kind: 'error', text: message.text }) : null}
        <form method="post" action={path}>
          {csrfInput(c)}
          <button type="submit">Accept the invitation</button>
        </form>
      </>
    ),
  });
}

export function mountInvitationAccept(app: Hono<ConsoleEnv>) {
  // Not token-shaped: a tenant's page whose id happens to be "invitations".
  const tokenOf = (c: Context<ConsoleEnv>) => (TOKEN.test(c.req.param('token') ?? '') ? c.req.param('token')! : undefined);
  app.get(PATH, (c: Context<ConsoleEnv>, next: Next) => (tokenOf(c) ? page(c) : next()));
  app.post(PATH, async (c: Context<ConsoleEnv>, next: Next) => {
    const token = tokenOf(c);
    if (!token) return next();
    const { db, clock } = c.get('deps');
    try {
      const { tenantId } = await acceptInvitation(db, { token, userId: c.get('userId'), now: clock?.() ?? new Date() });
      c.get('deps').accessCache?.invalidate(tenantId);
      c.header('Cache-Control', 'no-store');
      return c.redirect(accessPath(tenantId, 'my-access'), 303);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return page(c, { text: refusalText(err), status: err.status });
      throw err;
    }
  });
}
