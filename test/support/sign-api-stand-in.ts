// A test-only stand-in for the public signing API (GET/POST /api/public/sign-instance/{token},
// .../otp, .../verify) speaking the contract the hosted signing page drives, with a real two-page
// PDF made by pdf-lib, and the page itself mounted with a test-only SigningLinkCheck (the tokens
// below). The lead replaces both with the real API and session loader after merging; this app
// lets the page's own behaviour be asserted in Chromium now.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { AppEnv } from '../../api/env';
import { serveHostedScript } from '../../api/hosted/form-script';
import { signPageRoutes } from '../../api/signatures/sign-page-routes';

export const OTP_CODE = '246810';
export const ACCESS_TOKEN = 'access-token-for-tests';

/** What each token does: open signs, signed answers 409 on POST, refused 400, otp needs the code, gone passes the page's check but the API says 404. */
export const TOKENS = { open: 'tokOpen_0123456789abcdef', signed: 'tokSigned_0123456789abcd', refused: 'tokRefused_0123456789abc', otp: 'tokOtp_0123456789abcdefg', gone: 'tokGone_0123456789abcdef' } as const;

export const SIGNER = { id: 'buyer', label: 'Buyer' };
export const FIELDS = [
  { id: 'f-sig-1', signerId: 'buyer', type: 'SIGNATURE', page: 1, x: 72, y: 600, w: 200, h: 50 },
  { id: 'f-date', signerId: 'buyer', type: 'DATE', page: 1, x: 320, y: 610, w: 120, h: 30 },
  { id: 'f-text', signerId: 'buyer', type: 'TEXT', page: 1, x: 72, y: 200, w: 250, h: 28 },
  { id: 'f-seller', signerId: 'seller', type: 'SIGNATURE', page: 1, x: 320, y: 680, w: 200, h: 50 },
  { id: 'f-init', signerId: 'buyer', type: 'INITIALS', page: 2, x: 480, y: 720, w: 60, h: 36 },
  { id: 'f-name', signerId: 'buyer', type: 'NAME', page: 2, x: 72, y: 660, w: 200, h: 28 },
  { id: 'f-sig-2', signerId: 'buyer', type: 'SIGNATURE', page: 2, x: 72, y: 600, w: 200, h: 50 },
] as const;

export interface SignPost {
  token: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface SignApiStandIn {
  url: string;
  /** Every POST of a signature, as received. */
  posts: SignPost[];
  /** The Authorization header of every session GET, by token. */
  sessionAuth: { token: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

async function twoPagePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [n, title] of [[1, 'Purchase agreement'], [2, 'Schedule A']] as const) {
    const page = doc.addPage([612, 792]);
    page.drawText(title, { x: 72, y: 720, size: 24, font });
    page.drawText(`Page ${n}. The buyer signs below.`, { x: 72, y: 680, size: 12, font });
    page.drawRectangle({ x: 60, y: 60, width: 492, height: 4, color: rgb(0.1, 0.3, 0.6) });
  }
  return Buffer.from(await doc.save()).toString('base64');
}

const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: code, status, code, detail, ...extra }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });

export async function startSignApiStandIn(): Promise<SignApiStandIn> {
  const pdfBase64 = await twoPagePdf();
  const posts: SignPost[] = [];
  const sessionAuth: SignApiStandIn['sessionAuth'] = [];
  const known = new Set<string>(Object.values(TOKENS));
  const app = new Hono<AppEnv>();

  app.route('/', signPageRoutes(async (_deps, token) => (known.has(token) ? { codeFirst: token === TOKENS.otp } : null)));
  app.get('/hosted/:file', serveHostedScript);

  const api = '/api/public/sign-instance/:token';
  const verified = (token: string, authorization: string | undefined) => token !== TOKENS.otp || authorization === `Bearer ${ACCESS_TOKEN}`;
  app.get(api, (c) => {
    const token = c.req.param('token');
    sessionAuth.push({ token, authorization: c.req.header('authorization') });
    if (!known.has(token) || token === TOKENS.gone) return problem(404, 'sign-link-not-found', 'This signing link is not available.');
    if (!verified(token, c.req.header('authorization'))) return problem(401, 'verification-required', 'Verify your e-mail address first.');
    return c.json({
      pdfBase64,
      fields: FIELDS,
      variables: { price: '250,000 EUR', property: 'Hauptstraße 1 <b>not bold</b>' },
      signer: SIGNER,
      routing: { mode: 'sequential', order: 1, groups: 2, signedGroups: 0 },
    });
  });
  app.post(api, async (c) => {
    const token = c.req.param('token');
    if (!known.has(token) || token === TOKENS.gone) return problem(404, 'sign-link-not-found', 'This signing link is not available.');
    if (!verified(token, c.req.header('authorization'))) return problem(401, 'verification-required', 'Verify your e-mail address first.');
    const body = (await c.req.json()) as Record<string, unknown>;
    posts.push({ token, authorization: c.req.header('authorization'), body });
    if (token === TOKENS.signed) return problem(409, 'already-signed', 'This recipient has already signed.');
    if (token === TOKENS.refused)
      return problem(400, 'validation-failed', 'The signature was refused.', { errors: [{ path: 'signaturePng', message: 'not a PNG image' }] });
    return c.json({ status: 'R_SIGNED', signerId: SIGNER.id });
  });
  app.post(`${api}/otp`, (c) => new Response(null, { status: known.has(c.req.param('token')) ? 202 : 404 }));
  app.post(`${api}/verify`, async (c) => {
    const { code } = (await c.req.json()) as { code?: string };
    if (c.req.param('token') !== TOKENS.otp || code !== OTP_CODE) return problem(400, 'code-invalid', 'The code is wrong or has expired.');
    return c.json({ accessToken: ACCESS_TOKEN, expiresAt: new Date(Date.now() + 600_000).toISOString() });
  });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    sessionAuth,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
