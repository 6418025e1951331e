// The platform's icon, for every page (hosted pages, console): browsers ask for /favicon.ico
// whatever a page links, and a 404 there is noise in every log and console. Drawn here, in code:
// an SVG for the pages' <link rel="icon">, and the same picture as a 32 × 32 ICO (an uncompressed
// 32-bit bitmap, the format every browser reads) for the default request.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter } from '../../api/openapi';

export const FAVICON_PATH = '/favicon.svg';

const BLUE = [0x1a, 0x4f, 0xa0] as const;
const SIZE = 32;

/** A blue rounded square with three white lines: a form. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28" height="28" rx="5" fill="#1a4fa0"/><path d="M8 11h16M8 17h16M8 23h10" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>`;

/** The same picture, pixel by pixel: [r, g, b, alpha] at (x, y), y from the top. */
function pixel(x: number, y: number): [number, number, number, number] {
  const inSquare = x >= 2 && x < 30 && y >= 2 && y < 30;
  const corner = (cx: number, cy: number) => (x - cx) ** 2 + (y - cy) ** 2 > 25;
  const cut = (x < 7 && y < 7 && corner(7, 7)) || (x > 24 && y < 7 && corner(24, 7)) || (x < 7 && y > 24 && corner(7, 24)) || (x > 24 && y > 24 && corner(24, 24));
  if (!inSquare || cut) return [0, 0, 0, 0];
  const line = (row: number, end: number) => y >= row - 1 && y <= row && x >= 8 && x < end;
  return line(11, 24) || line(17, 24) || line(23, 18) ? [255, 255, 255, 255] : [...BLUE, 255];
}

/** ICONDIR + one ICONDIRENTRY + BITMAPINFOHEADER + BGRA rows bottom-up + an all-zero AND mask. */
function icoBytes(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // one bit per pixel, rows padded to 4 bytes
  const image = 40 + pixels + mask;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2); // an icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10); // planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18);
  out.writeUInt32LE(40, 22);
  out.writeInt32LE(SIZE, 26);
  out.writeInt32LE(SIZE * 2, 30); // colour rows and mask rows
  out.writeUInt16LE(1, 34);
  out.writeUInt16LE(32, 36);
  let at = 22 + 40;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y);
      out.writeUInt8(b, at++);
      out.writeUInt8(g, at++);
      out.writeUInt8(r, at++);
      out.writeUInt8(a, at++);
    }
  }
  return out;
}

const ICO = icoBytes();

const headers = (contentType: string) => ({
  'Content-Type': contentType,
  'Cache-Control': 'public, max-age=86400',
  'X-Content-Type-Options': 'nosniff',
});

const serveSvg = (c: Context) => c.body(SVG, 200, headers('image/svg+xml'));
const serveIco = (c: Context) => c.body(new Uint8Array(ICO), 200, headers('image/x-icon'));

export function faviconRoutes() {
  const app = createRouter();
  const tags = ['Pages: shared'];
  for (const [path, type] of [
    ['/favicon.ico', 'image/x-icon'],
    [FAVICON_PATH, 'image/svg+xml'],
  ] as const) {
    app.openAPIRegistry.registerPath({
      method: 'get',
      path,
      tags,
      security: [],
      summary: `The platform's icon (${type}), for every page`,
      responses: { 200: { description: 'The icon', content: { [type]: { schema: z.string() } } } },
    });
  }
  app.get('/favicon.ico', serveIco);
  app.get(FAVICON_PATH, serveSvg);
  return app;
}
