// The console's two scripts, served from our own origin at content-hashed paths with a year's
// cache: htmx (the pinned npm package, never a CDN) and the console's own small script. A page
// names the current hash, so a deploy never mixes an old page with a new script.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Context } from 'hono';
import { clientScript, type ClientScript } from '../hosted/client-bundle';

const CONSOLE_CLIENT = new URL('./client/console-client.ts', import.meta.url);

let htmx: Promise<ClientScript> | undefined;

function htmxScript(): Promise<ClientScript> {
  htmx ??= readFile(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), 'utf8').then((code) => ({
    code,
    hash: createHash('sha256').update(code).digest('hex').slice(0, 16),
  }));
  htmx.catch(() => (htmx = undefined));
  return htmx;
}

const scripts = { htmx: htmxScript, console: () => clientScript(CONSOLE_CLIENT) } as const;
type ConsoleScript = keyof typeof scripts;

/** The paths a console page's `<script src>` name, in load order. */
export async function consoleScriptPaths(): Promise<string[]> {
  const [h, c] = await Promise.all([scripts.htmx(), scripts.console()]);
  return [`/console/assets/htmx.${h.hash}.js`, `/console/assets/console.${c.hash}.js`];
}

/** GET /console/assets/:file: a current script under its own name, 404 for any other. */
export async function serveConsoleScript(c: Context): Promise<Response> {
  const match = /^(htmx|console)\.([0-9a-f]{16})\.js$/.exec(c.req.param('file') ?? '');
  const script = match ? await scripts[match[1] as ConsoleScript]() : undefined;
  if (!script || script.hash !== match![2]) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' });
  return c.body(script.code, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
}
