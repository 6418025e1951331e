// The hosted form's script at a content-hashed path (`/hosted/form.<hash>.js`), served immutable:
// a page names the current bundle, so a deploy never mixes an old page with a new script.
import type { Context } from 'hono';
import { clientScript } from './client-bundle';

const FORM_CLIENT = new URL('./client/form-client.ts', import.meta.url);

/** The path a page's `<script src>` names. */
export async function formScriptPath(): Promise<string> {
  return `/hosted/form.${(await clientScript(FORM_CLIENT)).hash}.js`;
}

/** GET /hosted/:file: the current bundle under its own name, 404 for any other. */
export async function serveFormScript(c: Context): Promise<Response> {
  const { code, hash } = await clientScript(FORM_CLIENT);
  if (c.req.param('file') !== `form.${hash}.js`) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' });
  return c.body(code, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
}
