import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp, type Who } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { seedDefinitionTenant, SIG_BASE, validSigningSchema } from '../../support/signatures';

/** The signing schema through the API: repair on read, problems with levels, errors blocking check-in, sign-off and publish. */
describe('signature definitions: the signing schema', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let editor: Who;

  beforeAll(async () => {
    editor = (await seedDefinitionTenant(ctx, 'SIGNATURES')).as('editor');
  });

  const create = async (body: Record<string, unknown> = {}) => {
    const r = await api.post(SIG_BASE, editor, { name: 'Employment contract', ...body });
    expect(r.status, r.text).toBe(201);
    return r.json;
  };

  it('without a draft the definition starts as the empty signing schema, whose errors are answered', async () => {
    const d = await create();
    expect(d.code).toMatch(/^SG-[A-Z2-9]{4}\d{2}[A-Z]{3}\d{2}$/);
    expect(d.draftSchema).toEqual({ document: { name: '' }, signers: [], fields: [], variables: [], routing: 'sequential' });
    expect(d.problems.filter((p: { level: string }) => p.level === 'error').map((p: { path: string }) => p.path)).toEqual(['document.name', 'document.key', 'signers']);
    expectProblem(await api.post(`${SIG_BASE}/${d.id}/versions`, editor), 422, 'draft-invalid');
  });

  it('a field on a page out of range is saved, answered as an error, and refused at check-in', async () => {
    const d = await create();
    const draft = validSigningSchema(2);
    draft.fields[0]!.page = 5;
    const saved = await api.put(`${SIG_BASE}/${d.id}/draft`, editor, { draftSchema: draft, version: d.version });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.problems).toEqual([{ path: 'fields.0.page', level: 'error', message: 'page 5 is out of range: the document has 2 pages' }]);
    const refused = await api.post(`${SIG_BASE}/${d.id}/versions`, editor);
    expectProblem(refused, 422, 'draft-invalid');
    expect(refused.json.problems[0].path).toBe('fields.0.page');
  });

  it('a malformed stored draft reads repaired: coerced, fields of missing signers dropped, the repair noted as warnings', async () => {
    const d = await create();
    const stored = { ...validSigningSchema(2), routing: 'PARALLEL', fields: [...validSigningSchema(2).fields, { id: 'x', signerId: 'ghost', type: 'TEXT', page: 1, x: 0, y: 0, w: 5, h: 5 }] };
    (stored.signers[1] as Record<string, unknown>).order = '2';
    await ctx.db.db.execute(sql`update signature_definitions set draft_schema = ${JSON.stringify(stored)}::jsonb where id = ${d.id}`);
    const read = await api.get(`${SIG_BASE}/${d.id}`, editor);
    expect(read.status, read.text).toBe(200);
    expect(read.json.draftSchema).toEqual({ ...validSigningSchema(2), document: stored.document, routing: 'parallel' });
    expect(read.json.problems).toEqual([
      { path: 'fields.3.signerId', level: 'warning', message: 'no signer "ghost"; field dropped' },
    ]);
    // Warnings do not block: the version is the stored draft, read repaired.
    const checked = await api.post(`${SIG_BASE}/${d.id}/versions`, editor);
    expect(checked.status, checked.text).toBe(201);
    expect((await api.get(`${SIG_BASE}/${d.id}/versions/1`, editor)).json.schema.fields.map((f: { id: string }) => f.id)).toEqual(['f1', 'f2', 'f3']);
    const garbage = await create();
    await ctx.db.db.execute(sql`update signature_definitions set draft_schema = '"not a schema"'::jsonb where id = ${garbage.id}`);
    expect((await api.get(`${SIG_BASE}/${garbage.id}`, editor)).json.draftSchema.signers).toEqual([]);
  });

  it('a version with errors under the current rules is refused at sign-off and publish (422 version-invalid)', async () => {
    const d = await create({ draftSchema: validSigningSchema(2) });
    expect((await api.post(`${SIG_BASE}/${d.id}/versions`, editor)).status).toBe(201);
    // Versions are immutable but for their sign-off; one stored before a rule tightened is what this looks like.
    const bad = validSigningSchema(2);
    bad.fields[2]!.page = 3;
    await ctx.db.db.execute(
      sql`insert into signature_versions (tenant_id, definition_id, version, schema, checked_in_by) values (${editor.tenant}, ${d.id}, 2, ${JSON.stringify(bad)}::jsonb, 'editor')`,
    );
    const signOff = await api.post(`${SIG_BASE}/${d.id}/sign-off`, editor);
    expectProblem(signOff, 422, 'version-invalid');
    expect(signOff.json.problems[0].path).toBe('fields.2.page');
    await ctx.db.db.execute(sql`update signature_versions set signed_off_at = now(), signed_off_by = 'reviewer' where definition_id = ${d.id} and version = 2`);
    expectProblem(await api.post(`${SIG_BASE}/${d.id}/versions/2/publish`, editor), 422, 'version-invalid');
  });

  it('checked-in versions and audit events are immutable at the database', async () => {
    const d = await create({ draftSchema: validSigningSchema(2) });
    expect((await api.post(`${SIG_BASE}/${d.id}/versions`, editor)).status).toBe(201);
    await expect(ctx.db.db.execute(sql`update signature_versions set schema = '{}'::jsonb where definition_id = ${d.id}`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
    await expect(ctx.db.db.execute(sql`delete from signature_audit_events where definition_id = ${d.id}`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
  });

  it('the JSON Schema of a version describes the campaign variables', async () => {
    const d = await create({ draftSchema: validSigningSchema(2) });
    expect((await api.post(`${SIG_BASE}/${d.id}/versions`, editor)).status).toBe(201);
    const js = await api.get(`${SIG_BASE}/${d.id}/versions/1/json-schema`, editor);
    expect(js.json).toMatchObject({ properties: { salary: { type: 'string', title: 'Salary' } }, required: ['salary'], additionalProperties: false });
  });
});
