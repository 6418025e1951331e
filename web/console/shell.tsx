// The frame of every console page: skip link, header (tenant switcher, the signed-in user),
// navigation by capability, the main region with its h1, and the page headers (the hosted pages'
// CSP with a nonce per response, no-store). Bodies are plain synchronous JSX: a page loads its
// data first, then renders.
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { newNonce, setPageHeaders } from '../hosted/page';
import { CONSOLE_STYLE } from './console-style';
import { CSRF_FIELD } from './csrf';
import type { ConsoleEnv } from './env';
import { devSignOutPath } from './dev-gateway';
import { tenantBase, visibleSections, type ConsoleSection } from './navigation';
import type { ConsoleViewer } from './viewer';

/**
 * htmx without eval, inline styles or script tags; 4xx answers are pages that say what went
 * wrong, so they are swapped in like any other; no page snapshots kept in localStorage.
 */
const HTMX_CONFIG = JSON.stringify({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[234]..', swap: true, error: false },
    { code: '...', swap: false, error: true },
  ],
});

const nonceOf = (c: Context<ConsoleEnv>) => {
  let nonce = c.get('nonce');
  if (!nonce) c.set('nonce', (nonce = newNonce()));
  return nonce;
};

function Document(p: { c: Context<ConsoleEnv>; title: string; children: Child }) {
  const nonce = nonceOf(p.c);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{p.title}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: CONSOLE_STYLE }} />
        {(p.c.get('consoleScripts') ?? []).map((src) => (
          <script nonce={nonce} src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to main content
        </a>
        {p.children}
      </body>
    </html>
  );
}

function render(c: Context<ConsoleEnv>, node: Child, status: number): Response {
  setPageHeaders(c, nonceOf(c), "frame-ancestors 'none'");
  const markup = (node as { toString(): string | Promise<string> }).toString();
  if (typeof markup !== 'string') throw new Error('console pages render synchronously: load data before rendering');
  return c.html(`<!doctype html>${markup}`, status as 200);
}

const ROLE_LABEL = { OWNER: 'owner', MEMBER: 'member', OPERATOR: 'operator' } as const;

function TenantSwitcher({ viewer }: { viewer: ConsoleViewer }) {
  const current = viewer.tenants.find((t) => t.id === viewer.tenantId);
  const name = current?.name ?? viewer.tenantId;
  if (viewer.tenants.length <= 1) return <span class="tenant">Tenant: {name}</span>;
  return (
    <details class="switcher">
      <summary>
        Tenant: {name}
        <span class="visually-hidden"> (switch tenant)</span>
      </summary>
      <ul aria-label="Your tenants">
        {viewer.tenants.map((t) => (
          <li>
            <a href={`${tenantBase(t.id)}/access/my-access`} aria-current={t.id === viewer.tenantId ? 'page' : undefined}>
              {t.name} <span class="tenant-role">({ROLE_LABEL[t.role]})</span>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

function UserBox({ c, viewer }: { c: Context<ConsoleEnv>; viewer: ConsoleViewer }) {
  const signOut = devSignOutPath(c);
  return (
    <div class="user">
      <span>
        Signed in as <strong>{viewer.displayName ?? viewer.userId}</strong>
        {viewer.displayName ? <span class="visually-hidden"> ({viewer.userId})</span> : null}
        {viewer.isOperator ? ' · platform operator' : null}
      </span>
      {signOut ? (
        <form method="post" action={signOut}>
          <button type="submit">Sign out</button>
        </form>
      ) : null}
    </div>
  );
}

function Sections({ viewer, section }: { viewer: ConsoleViewer; section: ConsoleSection }) {
  return (
    <nav class="sections" aria-label="Sections">
      <ul>
        {visibleSections(viewer).map((s) => (
          <li>
            <a href={`${tenantBase(viewer.tenantId)}${s.path}`} aria-current={s.section === section ? 'page' : undefined}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The region the console script fills when the server or the network fails during a partial update. */
const AlertRegion = () => <div id="console-alert" class="alert-region notice-error" role="alert" tabindex={-1} hidden></div>;

export interface ConsolePageParts {
  title: string;
  section: ConsoleSection;
  body: Child;
  status?: number;
}

/** A full console page for the viewer of this request (set by the console middleware). */
export function consolePage(c: Context<ConsoleEnv>, p: ConsolePageParts): Response {
  const viewer = c.get('viewer');
  const tenant = viewer.tenants.find((t) => t.id === viewer.tenantId)?.name ?? viewer.tenantId;
  return render(
    c,
    <Document c={c} title={`${p.title} · ${tenant} · Console`}>
      <header class="topbar">
        <span class="brand">Tenant console</span>
        <TenantSwitcher viewer={viewer} />
        <UserBox c={c} viewer={viewer} />
      </header>
      <Sections viewer={viewer} section={p.section} />
      <main id="main" tabindex={-1}>
        <AlertRegion />
        <h1>{p.title}</h1>
        {p.body}
      </main>
    </Document>,
    p.status ?? 200,
  );
}

/** A console page outside any tenant (no tenant yet, not signed in, not found): header and main only. */
export function barePage(c: Context<ConsoleEnv>, p: { title: string; body: Child; status?: number }): Response {
  return render(
    c,
    <Document c={c} title={`${p.title} · Console`}>
      <header class="topbar">
        <span class="brand">Tenant console</span>
      </header>
      <main id="main" tabindex={-1}>
        <h1>{p.title}</h1>
        {p.body}
      </main>
    </Document>,
    p.status ?? 200,
  );
}

/** The hidden field every console form carries (see csrf.ts). */
export function csrfInput(c: Context<ConsoleEnv>) {
  return <input type="hidden" name={CSRF_FIELD} value={c.get('csrfToken')} />;
}

/** A refusal or a confirmation shown beside the row it is about, announced to screen readers. */
export function notice({ kind, text }: { kind: 'error' | 'ok'; text: string }) {
  return (
    <p class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'} tabindex={-1}>
      {text}
    </p>
  );
}
