// pdf.js's data files from our own origin (the signing page's CSP allows fetches to 'self' only):
// the standard fonts (PDFs that name a base-14 font without embedding it), the packed CMaps (CJK
// text), the wasm decoders (JPEG 2000, JBIG2, colour profiles) and the ICC profiles, as the
// installed pdfjs-dist ships them. Paths carry the package version, so they are served immutable;
// only names listed in those folders are served, anything else is 404.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'hono';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
const version = (require('pdfjs-dist/package.json') as { version: string }).version;

/** The folders pdf.js asks for, by the option that names them. */
const FOLDERS = ['standard_fonts', 'cmaps', 'wasm', 'iccs'] as const;
type Folder = (typeof FOLDERS)[number];

const TYPES: Record<string, string> = {
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
  '.bcmap': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.icc': 'application/vnd.iccprofile',
};

let listed: Promise<Map<Folder, Set<string>>> | undefined;

function listings(): Promise<Map<Folder, Set<string>>> {
  listed ??= Promise.all(FOLDERS.map(async (f) => [f, new Set((await readdir(join(root, f))).filter((n) => TYPES[extOf(n)]))] as const)).then((e) => new Map(e));
  listed.catch(() => (listed = undefined));
  return listed;
}

const extOf = (name: string) => /\.[a-z0-9]+$/.exec(name)?.[0] ?? '';

/** The base path of the assets; `assetUrls(base)` gives pdf.js's options. */
export const pdfAssetBase = `/hosted/pdfjs/${version}`;

/** GET /hosted/pdfjs/:version/:folder/:file: a file pdfjs-dist ships, 404 for anything else. */
export async function servePdfAsset(c: Context): Promise<Response> {
  const { version: v, folder, file } = c.req.param() as { version: string; folder: string; file: string };
  const names = v === version && (FOLDERS as readonly string[]).includes(folder) ? (await listings()).get(folder as Folder) : undefined;
  if (!names?.has(file)) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' });
  const bytes = await readFile(join(root, folder, file));
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': TYPES[extOf(file)]!,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
}
