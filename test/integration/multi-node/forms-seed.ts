// A FORMS tenant and a published INBOUND form with its embed token, made over HTTP on one node.
import { expect } from 'vitest';
import { INTAKE_DRAFT } from '../../support/intake';
import { call, type NodeProcess, type Who } from './cluster';

export async function seedFormsTenantOn(node: NodeProcess, id: string) {
  const owner: Who = { user: `${id}-owner`, tenant: id };
  expect((await call(node, 'POST', '/api/tenants', { user: owner.user }, { id, name: `Tenant ${id}` })).status).toBe(201);
  expect((await call(node, 'PUT', `/api/tenants/${id}/capabilities/FORMS`, owner)).status).toBe(200);
  expect((await call(node, 'PUT', `/api/tenants/${id}/users/${owner.user}/capabilities/FORMS`, owner, { level: 'read-write' })).status).toBe(200);
  return { id, owner };
}

/** Creates, checks in, signs off and publishes the intake form; answers its code and embed token. */
export async function publishFormOn(node: NodeProcess, owner: Who, name = 'Intake') {
  const base = '/api/form-definitions';
  const created = await call(node, 'POST', base, owner, { name, kind: 'INBOUND', draftSchema: INTAKE_DRAFT });
  expect(created.status, created.text).toBe(201);
  const id = created.json.id as string;
  expect((await call(node, 'POST', `${base}/${id}/versions`, owner)).status).toBe(201);
  expect((await call(node, 'POST', `${base}/${id}/sign-off`, owner)).status).toBe(200);
  const published = await call(node, 'POST', `${base}/${id}/versions/1/publish`, owner);
  expect(published.status, published.text).toBe(200);
  const token = await call(node, 'GET', `${base}/${id}/embed-token`, owner);
  expect(token.status, token.text).toBe(200);
  return { code: published.json.code as string, token: token.json.token as string };
}

/** One public embed submission to a node. */
export const submitOn = (node: NodeProcess, token: string, email: string) =>
  call(node, 'POST', `/api/public/embed/${token}/submit`, null, { data: { email } });
