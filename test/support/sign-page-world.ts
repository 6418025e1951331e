// The hosted signing page's test world: an app with the real signing API served over HTTP, one
// Chromium, two published definitions (the buyer signs first by NONE or by EMAIL_OTP, the seller
// second), and the helpers the page tests share: a fresh campaign, a signer's page, Finish with the
// request it sent, the stored signature PNG, the typed path.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer } from '../../api/server';
import { physicalKey } from '../../domain/documents/storage-key';
import { client, type Who } from './app';
import { launchChromium } from './browser';
import { CAMPAIGNS, publishedDefinition, seedSignaturesTenant, SIGN_BASE, useCeremonyApp } from './ceremony';
import { documentRow } from './documents';
import { newAddress } from './outbound';
import { ceremonyReady, openSigningPage } from './sign-browser';

/** The buyer signs first (six fields over two pages), the seller second; the seller's field is never shown to the buyer. */
const field = (id: string, signerId: string, type: string, page: number, [x, y, w, h]: number[]) => ({ id, signerId, type, page, x, y, w, h });
export const FIELDS = [
  field('f-sig-1', 'buyer', 'SIGNATURE', 1, [72, 600, 200, 50]),
  field('f-date', 'buyer', 'DATE', 1, [320, 610, 120, 30]),
  field('f-text', 'buyer', 'TEXT', 1, [72, 200, 250, 28]),
  field('f-seller', 'seller', 'SIGNATURE', 1, [320, 680, 200, 50]),
  field('f-init', 'buyer', 'INITIALS', 2, [480, 720, 60, 36]),
  field('f-name', 'buyer', 'NAME', 2, [72, 660, 200, 28]),
  field('f-sig-2', 'buyer', 'SIGNATURE', 2, [72, 600, 200, 50]),
];
export const BUYER_FIELDS = FIELDS.filter((f) => f.signerId === 'buyer');
const pageSchema = (buyerVerify = 'NONE') => ({
  signers: [
    { id: 'buyer', label: 'Buyer', order: 1, verify: buyerVerify },
    { id: 'seller', label: 'Seller', order: 2 },
  ],
  fields: FIELDS,
  variables: [
    { key: 'price', label: 'Price' },
    { key: 'property', label: 'Property' },
  ],
  routing: 'sequential',
});
export const PNG_MAGIC = '89504e470d0a1a0a';

/** Registers the world's set-up and tear-down in the calling test file; answers its helpers. */
export function useSignPageWorld() {
  const ctx = useCeremonyApp();
  const api = client(ctx);
  let server: RunningServer;
  let browser: Browser;
  let editor: Who;
  let definitionId: string;
  let otpDefinitionId: string;

  beforeAll(async () => {
    const t = await seedSignaturesTenant(ctx);
    editor = t.as('editor');
    [definitionId, otpDefinitionId] = [await publishedDefinition(ctx, editor, pageSchema()), await publishedDefinition(ctx, editor, pageSchema('EMAIL_OTP'))];
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    browser = await launchChromium(ctx.settings);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const base = () => `http://127.0.0.1:${server.port}`;

  /** A fresh campaign: the buyer's link is armed, the seller's is not yet. */
  async function campaign(definition = definitionId) {
    const buyer = { signerId: 'buyer', name: 'Ada Lovelace', email: newAddress('buyer') };
    const r = await api.post(CAMPAIGNS, editor, {
      definitionId: definition,
      recipients: [buyer, { signerId: 'seller', name: 'Sam Seller', email: newAddress('seller') }],
      variables: { price: '250,000 EUR', property: 'Hauptstraße 1 <b>not bold</b>' },
    });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, buyer: token('buyer'), seller: token('seller'), email: buyer.email };
  }

  const openPage = (token: string, options: BrowserContextOptions = {}) => openSigningPage(browser, `${base()}/sign/${token}`, options);

  /** Clicks Finish and answers the signature request the browser sent. */
  async function finishAndCapture(page: Page): Promise<Request> {
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.startsWith(SIGN_BASE)), page.locator('#finish').click()]);
    return request;
  }

  /** The bytes of a recipient's stored signature PNG (the document store, as the seal will read it). */
  async function storedSignature(instanceId: string, signerId: string): Promise<Buffer> {
    const [row] = (await ctx.db.db.execute(
      sql`select signature_document_id as id from signature_recipients where instance_id = ${instanceId} and signer_id = ${signerId}`,
    )) as unknown as { id: string }[];
    const doc = (await documentRow(ctx, row!.id))!;
    expect(doc).toMatchObject({ capability: 'SIGNATURES', ownerEntityId: instanceId });
    const out = await ctx.deps.s3!.send(new GetObjectCommand({ Bucket: ctx.settings['s3.bucket'], Key: physicalKey(doc.tenantId, doc.storageKey), VersionId: doc.storageVersionId! }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  /** Types the name, initials from it, consents. */
  async function typeAndConsent(page: Page, name = 'Ada Lovelace') {
    await page.getByLabel('Type', { exact: true }).check();
    await page.locator('#typed-name').fill(name);
    await page.getByLabel('From my name').check();
    await page.locator('#consent').check();
  }

  return {
    ctx,
    api,
    base,
    editor: () => editor,
    campaign: (verify: 'NONE' | 'EMAIL_OTP' = 'NONE') => campaign(verify === 'NONE' ? definitionId : otpDefinitionId),
    openPage,
    ceremonyReady,
    finishAndCapture,
    storedSignature,
    typeAndConsent,
  };
}
