import { beforeAll, describe, expect, it } from 'vitest';
import { definitionSchemas } from '../../../api/definitions/schemas';
import { formDefinitionApi } from '../../../api/forms/definition-plugin';
import { createDefinition } from '../../../services/definitions/create-definition';
import { formDefinitionCapability } from '../../../services/forms/form-definitions';
import { useTestApp } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { ageLock, BASE, formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

const schemas = definitionSchemas('Form', 'FM-', formDefinitionApi.createFields, formDefinitionApi.viewFields);

describe('form definition reads', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
  });

  it('every answer has the shape its OpenAPI schema documents', async () => {
    const who = t.as('editor');
    const created = await api.post(BASE, who, { name: 'Shape', kind: 'INBOUND', draftSchema: VALID_DRAFT });
    schemas.Saved.parse(created.json);
    const id = created.json.id;
    schemas.VersionSummary.parse((await api.checkIn(who, id)).json);
    schemas.Definition.parse((await api.step(who, id, 'sign-off')).json);
    schemas.Definition.parse((await api.get(`${BASE}/${id}`, who)).json);
    schemas.Page.parse((await api.get(BASE, who)).json);
    schemas.Version.parse((await api.get(`${BASE}/${id}/versions/1`, who)).json);
    schemas.AuditPage.parse((await api.get(`${BASE}/${id}/audit`, who)).json);
  });

  it('lists live definitions newest first, filtered by status, paged by cursor', async () => {
    const tenant = await seedFormsTenant(ctx);
    const who = tenant.as('editor');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.create(who, { name: `n${i}` })).id);
    await api.step(who, ids[1]!, 'retire');
    const first = await api.get(`${BASE}?limit=2`, who);
    expect(first.json.items.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    expect(first.json.items[0].draftSchema).toBeUndefined();
    const second = await api.get(`${BASE}?limit=2&cursor=${first.json.nextCursor}`, who);
    expect(second.json.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    const retired = await api.get(`${BASE}?status=RETIRED`, who);
    expect(retired.json).toEqual({ items: [expect.objectContaining({ id: ids[1], status: 'RETIRED' })], nextCursor: null });
    expectProblem(await api.get(`${BASE}?cursor=bogus`, who), 400, 'invalid-cursor');
    expect((await api.get(`${BASE}?limit=5000`, who)).json.items).toHaveLength(5);
    expectProblem(await api.get(`${BASE}?limit=0`, who), 400, 'validation-failed');
  });

  it("a version's JSON Schema is answered; an unknown version is 404 version-not-found", async () => {
    const who = t.as('editor');
    const d = await api.create(who);
    await api.checkIn(who, d.id);
    const r = await api.get(`${BASE}/${d.id}/versions/1/json-schema`, who);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ type: 'object', title: 'T' });
    expectProblem(await api.get(`${BASE}/${d.id}/versions/2/json-schema`, who), 404, 'version-not-found');
    expectProblem(await api.get(`${BASE}/${d.id}/versions/2`, who), 404, 'version-not-found');
  });

  it('a code collision is retried with fresh characters', async () => {
    // The first two codes drawn are the same, so the second create collides once and retries.
    const draws = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
    const random = () => draws.shift() ?? 2;
    const deps = { db: ctx.db.db, settings: ctx.settings, random };
    const actor = { tenantId: t.id, userId: 'editor' };
    const columns = { kind: 'INBOUND' as const };
    const first = await createDefinition(deps, formDefinitionCapability, actor, { name: 'a', columns });
    const second = await createDefinition(deps, formDefinitionCapability, actor, { name: 'b', columns });
    expect(first.definition.code.slice(0, 7)).toBe('FM-AAAA');
    expect(second.definition.code.slice(0, 7)).toBe('FM-BBBB');
    expect(draws).toEqual([]);
  });
});

describe('forms.lock-ttl-minutes', () => {
  const ctx = useTestApp({ 'forms.lock-ttl-minutes': 5 });
  const api = formsApi(ctx);

  it('sets when a lock becomes stale', async () => {
    const t = await seedFormsTenant(ctx);
    const d = await api.create(t.as('editor'));
    await api.step(t.as('editor'), d.id, 'checkout');
    await ageLock(ctx, d.id, 4);
    expectProblem(await api.step(t.as('other'), d.id, 'checkout'), 409, 'definition-locked');
    await ageLock(ctx, d.id, 6);
    expect((await api.step(t.as('other'), d.id, 'checkout')).json.lockedBy).toBe('other');
  });
});
