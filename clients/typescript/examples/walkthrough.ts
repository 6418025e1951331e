// API=http://localhost:3000 npx tsx clients/typescript/examples/walkthrough.ts
import {
  getApiFormDefinitionsById,
  postApiFormDefinitions,
  postApiTenants,
  putApiTenantsByTCapabilitiesByCode,
  putApiTenantsByTusersByUCapabilitiesByCode,
} from '../generated';
import { createPlatformClient, PlatformProblem } from '../index';

const baseUrl = process.env.API ?? 'http://localhost:3000';
const alice = createPlatformClient({ baseUrl, userId: 'alice' });
const aliceAtGlobex = createPlatformClient({ baseUrl, userId: 'alice', tenantId: 'globex' });
const opsAtGlobex = createPlatformClient({ baseUrl, userId: 'ops', tenantId: 'globex' });

// By default a failed call resolves too: `error` is a PlatformProblem naming the error code.
const created = await postApiTenants({ client: alice, body: { id: 'globex', name: 'Globex Corp' } });
const again = await postApiTenants({ client: alice, body: { id: 'globex', name: 'Globex Corp' } });
console.log(`tenant ${created.data?.id ?? created.error?.code}; again: ${again.error?.status} ${again.error?.code}`);

// With throwOnError a failed call throws its PlatformProblem, and `data` is never undefined.
const t = 'globex';
const { data: subscription } = await putApiTenantsByTCapabilitiesByCode({
  client: opsAtGlobex,
  path: { t, code: 'FORMS' },
  throwOnError: true,
});
const { data: grant } = await putApiTenantsByTusersByUCapabilitiesByCode({
  client: aliceAtGlobex,
  path: { t, u: 'alice', code: 'FORMS' },
  body: { level: 'read-write' },
  throwOnError: true,
});
const { data: form } = await postApiFormDefinitions({
  client: aliceAtGlobex,
  body: { name: 'Feedback', kind: 'INBOUND' },
  throwOnError: true,
});
console.log(`FORMS ${subscription.status}, alice ${grant.level}, form "${form.name}" ${form.status}`);

try {
  await getApiFormDefinitionsById({
    client: aliceAtGlobex,
    path: { id: '00000000-0000-4000-8000-000000000000' },
    throwOnError: true,
  });
} catch (err) {
  if (!(err instanceof PlatformProblem)) throw err;
  console.log(`${err.status} ${err.code}: ${err.detail}`);
}
