import { expect } from 'vitest';
import type { TestContext, Who } from './app';
import { formsApi } from './forms';

export const EMBED_KEY = 'test-embed-key-0123456789abcdef0123456789';

/** A form with a required email and an optional name, whose fields validate submissions. */
export const INTAKE_DRAFT = {
  title: 'Contact',
  fields: [
    { key: 'name', type: 'text', label: 'Name' },
    { key: 'email', type: 'email', label: 'Email', required: true },
  ],
};

/** Creates, checks in, signs off and publishes a definition; answers it and its embed token. */
export async function publishedForm(ctx: TestContext, who: Who, body: Record<string, unknown> = {}) {
  const api = formsApi(ctx);
  const def = await api.create(who, { draftSchema: INTAKE_DRAFT, ...body });
  expect((await api.checkIn(who, def.id)).status).toBe(201);
  expect((await api.step(who, def.id, 'sign-off')).status).toBe(200);
  const pub = await api.step(who, def.id, 'versions/1/publish');
  expect(pub.status, pub.text).toBe(200);
  const tok = await api.get(`/api/form-definitions/${def.id}/embed-token`, who);
  return { def: pub.json as { id: string; code: string }, token: tok.json?.token as string, tokenResponse: tok };
}
