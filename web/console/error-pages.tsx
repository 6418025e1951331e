// Console failures as pages a person can act on, never a problem+json: the same status the API
// would answer, a sentence for the refusal, and a way on. An unexpected error is logged and is a
// 500 page (a bug, as in the API).
import type { Context, ErrorHandler } from 'hono';
import type { Child } from 'hono/jsx';
import { AppError } from '../../domain/errors';
import { contentionError } from '../../services/platform/contention';
import { CrossSiteRefusal } from './console-middleware';
import type { ConsoleEnv } from './env';
import { SECTIONS, type ConsoleSection } from './navigation';
import { refusalText } from './refusals';
import { barePage, consolePage } from './shell';
import { devSignInPath } from './dev-gateway';

/** The section a failed path belongs to, so the page keeps its navigation. */
function sectionOf(path: string): ConsoleSection {
  const segment = path.split('/')[3] ?? '';
  return SECTIONS.find((s) => s.path.split('/')[1] === segment)?.section ?? 'access';
}

function errorPage(c: Context<ConsoleEnv>, title: string, body: Child, status: number): Response {
  if (c.get('viewer')) return consolePage(c, { title, section: sectionOf(c.req.path), body, status });
  return barePage(c, { title, body, status });
}

const TITLES: Record<number, string> = {
  400: 'This request cannot be used',
  401: 'You are not signed in',
  403: 'You cannot do this',
  404: 'Not found',
  409: 'This cannot be done now',
  429: 'Too many requests',
  503: 'Not available right now',
};

function signedOut(c: Context<ConsoleEnv>, err: AppError) {
  const signIn = devSignInPath(c);
  return barePage(c, {
    title: 'You are not signed in',
    status: err.status,
    body: (
      <>
        <p>{refusalText(err)}</p>
        {signIn ? (
          <p>
            <a href={signIn}>Sign in</a>
          </p>
        ) : (
          <p>Open the console through your organisation's sign-in gateway.</p>
        )}
      </>
    ),
  });
}

export const consoleOnError: ErrorHandler<ConsoleEnv> = (thrown, c) => {
  if (thrown instanceof CrossSiteRefusal) {
    c.get('log')?.warn({ reason: thrown.message }, 'console: cross-site or stale form refused');
    const body = <p>This form was not sent from this console page, so nothing was changed. Reload the page and try again.</p>;
    return errorPage(c, 'Form refused', body, 403);
  }
  const err = contentionError(thrown) ?? thrown;
  if (err instanceof AppError) {
    const challenge = err.extra['wwwAuthenticate'];
    if (err.status === 401 && challenge) c.header('WWW-Authenticate', String(challenge));
    if (err.code === 'missing-header' && err.extra['header'] === 'X-User-Id') return signedOut(c, err);
    if (err.status === 401) return signedOut(c, err);
    const retry = err.extra['retryAfterSeconds'];
    if (typeof retry === 'number') c.header('Retry-After', String(Math.max(1, Math.ceil(retry))));
    return errorPage(c, TITLES[err.status] ?? 'This cannot be done', <p>{refusalText(err)}</p>, err.status);
  }
  c.get('log')?.error({ err }, 'console: unhandled error');
  return errorPage(c, 'Something went wrong', <p>Something went wrong on our side and nothing was changed. Try again in a moment.</p>, 500);
};

/** Any other /console path. */
export function consoleNotFound(c: Context<ConsoleEnv>): Response {
  return errorPage(c, 'Not found', <p>There is no console page at this address.</p>, 404);
}
