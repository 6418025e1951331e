// The hosted pages' scripts at content-hashed paths (`/hosted/<name>.<hash>.js`), served immutable:
// a page names the current bundle, so a deploy never mixes an old page with a new script.
import type { Context } from 'hono';
import { clientScript } from './client-bundle';

const CLIENTS = {
  /** The embed page's form. */
  form: new URL('./client/form-client.ts', import.meta.url),
  /** The respond page: code step, then the recipient's form. */
  respond: new URL('./client/respond-client.ts', import.meta.url),
  /** The signing page: pdf.js, the recipient's fields, signature_pad. */
  sign: new URL('./client/sign-client.ts', import.meta.url),
} as const;

export type HostedScript = keyof typeof CLIENTS;

/** The path a page's `<script src>` names. */
export async function hostedScriptPath(name: HostedScript): Promise<string> {
  return `/hosted/${name}.${(await clientScript(CLIENTS[name])).hash}.js`;
}

/** GET /hosted/:file: a current bundle under its own name, 404 for any other. */
export async function serveHostedScript(c: Context): Promise<Response> {
  const match = /^(form|respond|sign)\.([0-9a-f]{16})\.js$/.exec(c.req.param('file') ?? '');
  const script = match ? await clientScript(CLIENTS[match[1] as HostedScript]) : undefined;
  if (!script || script.hash !== match![2]) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' });
  return c.body(script.code, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
}
