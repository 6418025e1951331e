// GET /embed.js: the embed SDK (embed-sdk-client.ts, bundled once per process), cacheable by
// every host page; its ETag is the bundle's content hash.
import type { Context } from 'hono';
import { clientScript } from '../hosted/client-bundle';

const SDK = new URL('./embed-sdk-client.ts', import.meta.url);

export async function serveEmbedSdk(c: Context): Promise<Response> {
  const { code, hash } = await clientScript(SDK);
  const etag = `"${hash}"`;
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
    // Host pages on any origin load it with a plain <script> (no CORS needed); the CORP header says so.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(code, 200, headers);
}
