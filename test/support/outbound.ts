// Outbound forms in tests: a published OUTBOUND definition with roles, a send, and the recipient's code step.
import { expect } from 'vitest';
import { client, type TestContext, type Who } from './app';
import { formsApi } from './forms';
import { codeIn, waitForMail } from './mail';

/** account: PREPARER, amount: EITHER, answer: RECIPIENT (required), plus a content field. */
export const OUTBOUND_DRAFT = {
  title: 'Account review',
  fields: [
    { key: 'account', type: 'text', label: 'Account', required: true },
    { key: 'amount', type: 'number', label: 'Amount' },
    { key: 'answer', type: 'text', label: 'Your answer', required: true },
    { key: 'note', type: 'content', label: 'Thanks' },
  ],
};
export const ROLES = { account: 'PREPARER', amount: 'EITHER', answer: 'RECIPIENT' };

let seq = 0;
/** A fresh address per call, so tests read only their own mail from the run's catcher. */
export const newAddress = (label = 'r') => `${label}-${Date.now().toString(36)}-${++seq}@example.test`;

export async function outboundForm(ctx: TestContext, who: Who, publish = true) {
  const api = formsApi(ctx);
  const def = await api.create(who, { kind: 'OUTBOUND', draftSchema: OUTBOUND_DRAFT });
  const cfg = await api.put(`/api/form-definitions/${def.id}/outbound-config`, who, { roles: ROLES });
  expect(cfg.status, cfg.text).toBe(200);
  if (publish) {
    expect((await api.checkIn(who, def.id)).status).toBe(201);
    expect((await api.step(who, def.id, 'sign-off')).status).toBe(200);
    expect((await api.step(who, def.id, 'versions/1/publish')).status).toBe(200);
  }
  return def as { id: string; code: string };
}

export async function send(ctx: TestContext, who: Who, definitionId: string, body: Record<string, unknown> = {}) {
  const email = newAddress();
  const r = await client(ctx).post(`/api/form-definitions/${definitionId}/send`, who, { recipient: { email, name: 'Ann Lee' }, prefill: { account: 'AC-1' }, ...body });
  return { r, email };
}

/** Code requested, read from the e-mail, verified: the access token. */
export async function openForm(ctx: TestContext, token: string, email: string, mailsBefore = 1) {
  const api = client(ctx);
  expect((await api.post(`/api/public/form-instances/${token}/otp`, null)).status).toBe(202);
  const mails = await waitForMail(email, mailsBefore + 1);
  const v = await api.post(`/api/public/form-instances/${token}/verify`, null, { code: codeIn(mails.at(-1)!) });
  expect(v.status, v.text).toBe(200);
  return v.json.accessToken as string;
}

export const bearer = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });
