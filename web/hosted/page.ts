// The shell of every hosted page: one nonce per response, the Content-Security-Policy built on it,
// the page's own stylesheet, the page data as an inert JSON block, and its one script.
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import { FAVICON_PATH } from './favicon';

type Html = ReturnType<typeof html>;

export const newNonce = () => randomBytes(18).toString('base64url');

/**
 * Nothing loads but what the page needs: its nonce'd script and style, fetches to its own origin
 * (the public API), images from itself. No inline handlers can run (no 'unsafe-inline'), nothing
 * evals, forms post nowhere but here, and `frameAncestors` decides who may frame it.
 */
function contentSecurityPolicy(nonce: string, frameAncestors: string, more: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    frameAncestors,
    ...more,
  ].join('; ');
}

/** The headers of a hosted page. The token is in its URL, so no referrer ever leaves it. */
export function setPageHeaders(c: Context, nonce: string, frameAncestors: string, moreDirectives: readonly string[] = []) {
  c.header('Content-Security-Policy', contentSecurityPolicy(nonce, frameAncestors, moreDirectives));
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
}

/** JSON that cannot end its script element or start a comment in it. */
const scriptJson = (data: unknown) => raw(JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));

const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; font-size: 16px; line-height: 1.45; color: #1b1b1b; }
body { margin: 0; }
main { padding: 16px; max-width: 720px; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
.field, .content, fieldset { margin: 0 0 1rem; }
fieldset { border: 0; padding: 0; }
legend, label { font-weight: 600; display: block; margin-bottom: .25rem; }
.choice { display: flex; gap: .5rem; align-items: center; margin: 0 0 .25rem; }
.choice label { font-weight: 400; margin: 0; min-height: 24px; display: flex; align-items: center; padding: 2px 0; }
/* WCAG 2.2 target size: the box itself is 24 × 24 CSS px, and its label widens the hit area. */
.choice input[type=radio], .choice input[type=checkbox] { width: 24px; height: 24px; margin: 0; flex: none; accent-color: #1a4fa0; }
input[type=text], input[type=email], input[type=tel], input[type=number], input[type=date], select, textarea { width: 100%; box-sizing: border-box; padding: .5rem; border: 1px solid #555; border-radius: 4px; font: inherit; }
[aria-invalid=true] { border-color: #b00020; outline: 2px solid #b00020; }
.help { color: #444; margin: 0 0 .25rem; }
.error { color: #b00020; font-weight: 600; margin: .25rem 0 0; }
.error-summary { border: 3px solid #b00020; padding: .75rem 1rem; margin-bottom: 1rem; }
.error-summary a { color: #b00020; display: inline-block; padding: 2px 0; min-height: 24px; }
.required { font-weight: 400; color: #444; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.files { list-style: none; padding: 0; margin: .25rem 0; }
.files li { display: flex; gap: .5rem; align-items: center; min-height: 24px; }
.files-label { margin: .5rem 0 0; font-weight: 600; }
/* The native file input stays the focusable control (its name is the field's label) but is drawn
   as the button after it: its own "No file chosen" text would contradict the list of uploads. */
.file-input { position: absolute; width: 1px; height: 1px; opacity: 0; overflow: hidden; }
.file-button { display: inline-block; font-weight: 400; margin: 0; padding: .5rem 1rem; border: 1px solid #1a4fa0; border-radius: 4px; color: #1a4fa0; background: #fff; cursor: pointer; }
.file-input:focus-visible + .file-button { outline: 3px solid #f5a623; outline-offset: 2px; }
.file-input:disabled + .file-button { border-color: #555; color: #444; cursor: default; }
.note { color: #444; margin: .25rem 0 0; font-size: .95rem; }
button { font: inherit; padding: .5rem 1.25rem; border-radius: 4px; border: 0; background: #1a4fa0; color: #fff; cursor: pointer; }
button.link { background: none; color: #1a4fa0; padding: 0; min-height: 24px; text-decoration: underline; }
button[disabled] { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
`;

export interface PageParts {
  title: string;
  nonce: string;
  body: Html;
  /** Read by the script from `#page-data`; absent for a page without a script. */
  data?: unknown;
  scriptSrc?: string;
  /** The page's own rules, after the shared ones. */
  style?: string;
}

export function hostedPage(p: PageParts): string {
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${p.title}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style nonce="${p.nonce}">${raw(STYLE + (p.style ?? ''))}</style>
</head>
<body>
<main>${p.body}</main>
${p.data === undefined ? '' : html`<script type="application/json" id="page-data">${scriptJson(p.data)}</script>`}
${p.scriptSrc ? html`<script nonce="${p.nonce}" src="${p.scriptSrc}"></script>` : ''}
</body>
</html>`);
}
