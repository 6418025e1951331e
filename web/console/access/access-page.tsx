// What every access page shares: the spec's sub-navigation, the owner-only rule, the action form
// (a plain POST that htmx turns into a partial update of the main region), and the outcome of an
// action shown beside the row it concerns.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Child } from 'hono/jsx';
import { z } from 'zod';
import { AppError } from '../../../domain/errors';
import type { ConsoleEnv } from '../env';
import { ACCESS_PAGES, accessPath, type AccessPage } from '../navigation';
import { refusalText } from '../refusals';
import { consolePage, csrfInput, notice } from '../shell';

export type ConsoleContext = Context<ConsoleEnv>;

/** The answer to one action: which row (or form) it concerns, what to say there, and the page's status. */
export interface Outcome {
  key: string;
  kind: 'error' | 'ok';
  text: string;
  /** The refusal's own status (the API's for the same refusal), 200 when it worked. */
  status: number;
}

/** The notice of `outcome` if it concerns `key`. */
export const noticeFor = (outcome: Outcome | undefined, key: string) =>
  outcome && outcome.key === key ? notice({ kind: outcome.kind, text: outcome.text }) : null;

/** An outcome whose row is not on the page any more (decided elsewhere, removed): shown above the list. */
export const strayNotice = (outcome: Outcome | undefined, keys: readonly string[]) =>
  outcome && !keys.includes(outcome.key) ? notice({ kind: outcome.kind, text: outcome.text }) : null;

/** Runs an action; a refusal of the services becomes a notice beside `key`, anything else is thrown. */
export async function attempt(key: string, action: () => Promise<string>): Promise<Outcome> {
  try {
    return { key, kind: 'ok', text: await action(), status: 200 };
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return { key, kind: 'error', text: refusalText(err), status: err.status };
    throw err;
  }
}

/** Form input a schema refuses: the fields' own messages, in words. */
export function readInput<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.output<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw new AppError('validation-failed', parsed.error.issues.map((i) => i.message).join(' '), { inWords: true });
}

function AccessNav({ c, current }: { c: ConsoleContext; current: AccessPage }) {
  const viewer = c.get('viewer');
  const pages = ACCESS_PAGES.filter((p) => !p.ownerOnly || viewer.isOwner);
  return (
    <nav class="subnav" aria-label="Access">
      <ul>
        {pages.map((p) => (
          <li>
            <a href={accessPath(viewer.tenantId, p.slug)} aria-current={p.slug === current ? 'page' : undefined}>
              {p.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** An access page: the sub-navigation, then the page's content; its h1 is the page's label unless `title` says otherwise. */
export function accessPage(c: ConsoleContext, page: AccessPage, body: Child, status = 200, title?: string): Response {
  const label = ACCESS_PAGES.find((p) => p.slug === page)!.label;
  return consolePage(c, {
    title: title ?? label,
    section: 'access',
    status,
    body: (
      <>
        <AccessNav c={c} current={page} />
        {body}
      </>
    ),
  });
}

/**
 * Owner-only pages: anyone else goes to Manage My Access with a 303, on a GET or a POST alike,
 * so ownership lost between two clicks lands there too. An htmx request is told to navigate
 * (HX-Redirect): a 303 would be followed inside the request and swapped in under the old URL.
 */
export const ownerOnly = createMiddleware<ConsoleEnv>(async (c, next) => {
  const viewer = c.get('viewer');
  if (viewer.isOwner) return next();
  const target = accessPath(viewer.tenantId, 'my-access');
  if (c.req.header('HX-Request') === 'true') {
    c.header('HX-Redirect', target);
    c.header('Cache-Control', 'no-store');
    return c.body(null, 200);
  }
  c.header('Cache-Control', 'no-store');
  return c.redirect(target, 303);
});

/**
 * A form that posts one action to this page. Without script it is a plain POST answered by the
 * whole page; with htmx the answer's main region replaces this one, focus lands on the notice.
 */
export function ActionForm(p: { c: ConsoleContext; action: string; label?: string; class?: string; children: Child }) {
  const url = p.c.req.path;
  return (
    <form
      method="post"
      action={url}
      class={p.class ?? 'inline'}
      aria-label={p.label}
      hx-post={url}
      hx-target="#main"
      hx-select="#main"
      hx-swap="outerHTML"
      hx-disabled-elt="find button"
    >
      {csrfInput(p.c)}
      <input type="hidden" name="action" value={p.action} />
      {p.children}
      <span class="busy-indicator" aria-hidden="true">
        Working…
      </span>
    </form>
  );
}

/** A form's fields, strings only (a repeated field keeps its last value). */
export async function formFields(c: ConsoleContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  return fields;
}
