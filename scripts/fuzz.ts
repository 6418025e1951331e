// The API fuzzer (issue 11 §6): starts the whole stack as `npm start` does (API, worker and
// dispatcher against embedded PostgreSQL, Temporal and S3, in a fresh data directory) with the
// voice provider pointed at the Vapi stand-in, creates the tenant the OpenAPI examples name
// (`acme`, owner `alice` holding every capability, calendar `EU-SUPPORT`, location `BER`, process
// key `invoice-approval`), then runs the pinned Schemathesis (scripts/install-schemathesis.sh)
// over every operation with a fixed seed and a bounded number of examples. Exit code: Schemathesis'
// (non-zero on any 5xx or response that breaks its schema).
//   npx tsx scripts/fuzz.ts [--max-examples N] [--seed N]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getFreePort } from '../workers/embedded/index';
import { start as startVapi } from '../test/stand-ins/vapi/server';

const { values: args } = parseArgs({ options: { 'max-examples': { type: 'string', default: '5' }, seed: { type: 'string', default: '20261123' } } });
const root = resolve(import.meta.dirname, '..');
const st = join(root, '.tools/schemathesis/bin/st');
if (!existsSync(st)) throw new Error('Schemathesis is not installed: run scripts/install-schemathesis.sh');

const TENANT = 'acme';
const OWNER = 'alice';
const INTERNAL_KEY = 'fuzz-internal-key-0123456789';
const PROVIDER_KEY = 'fuzz-provider-key';

const dataDir = await mkdtemp(join(tmpdir(), 'platform-fuzz-'));
const vapi = await startVapi({ apiKey: PROVIDER_KEY });
const port = await getFreePort();
const base = `http://127.0.0.1:${port}`;
let stack: ChildProcess | undefined;

async function cleanUp() {
  if (stack && stack.exitCode === null) {
    stack.kill('SIGTERM');
    await new Promise((done) => stack!.once('exit', done));
  }
  await vapi.close();
  await rm(dataDir, { recursive: true, force: true });
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-User-Id': OWNER, 'X-Tenant-Id': TENANT },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? {} : await res.json()) as Record<string, unknown>;
}

/**
 * Records whose ids the server makes (definitions, instances, subscriptions): created here and
 * handed to Schemathesis as fixed path parameters per route family, so it reaches past the 404s.
 */
async function idFixtures() {
  const form = await call('POST', '/api/form-definitions', { name: 'Fuzz form', kind: 'INBOUND', draftSchema: { title: 'Fuzz', fields: [{ key: 'name', type: 'text', label: 'Name' }] } });
  await call('POST', `/api/form-definitions/${form.id}/versions`);
  await call('POST', `/api/form-definitions/${form.id}/sign-off`);
  await call('POST', `/api/form-definitions/${form.id}/versions/1/publish`);
  const instance = await call('POST', '/api/form-instances', { definitionId: form.id });
  const subscription = await call('POST', '/api/form-event-subscriptions', { formCode: form.code, eventType: 'submitted', workflowType: 'fuzzSubscriber' });
  const signature = await call('POST', '/api/signature-definitions', { name: 'Fuzz signing' });
  const families: Array<[string, Record<string, unknown>]> = [
    ['^/api/form-definitions/\\{id\\}', { 'path.id': form.id, 'path.v': 1 }],
    ['^/api/form-instances/\\{id\\}', { 'path.id': instance.id }],
    ['^/api/form-event-subscriptions/\\{id\\}', { 'path.id': subscription.id }],
    ['^/api/signature-definitions/\\{id\\}', { 'path.id': signature.id, 'path.v': 1 }],
  ];
  const toml = families
    .map(([regex, params]) => {
      const values = Object.entries(params).map(([k, v]) => `"${k}" = ${JSON.stringify(v)}`).join(', ');
      return `[[operations]]\ninclude-path-regex = '${regex}'\nparameters = { ${values} }\n`;
    })
    .join('\n');
  const file = join(dataDir, 'schemathesis.toml');
  await writeFile(file, toml);
  return file;
}

async function waitReady(deadline: number) {
  while (Date.now() < deadline) {
    if (stack!.exitCode !== null) throw new Error(`the stack exited with ${stack!.exitCode}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the stack did not become ready');
}

let status = 1;
try {
  stack = spawn(process.execPath, ['--import', 'tsx', join(root, 'workers/dev.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      TEMPORAL_UI_PORT: String(await getFreePort()),
      LOG_LEVEL: 'error',
      INTERNAL_KEY,
      SECRETS_MASTER_KEY: randomBytes(32).toString('base64'),
      ACCESS_OPERATORS: OWNER,
      PHONE_PROVIDER_BASE_URL: vapi.baseUrl,
      PHONE_PROVIDER_API_KEY: PROVIDER_KEY,
    },
  });
  await waitReady(Date.now() + 180_000);

  await call('POST', '/api/tenants', { id: TENANT, name: 'Acme' });
  for (const code of ['CALENDAR', 'SLA', 'PHONE', 'FORMS', 'SIGNATURES', 'EMAIL']) {
    await call('PUT', `/api/tenants/${TENANT}/capabilities/${code}`);
    await call('PUT', `/api/tenants/${TENANT}/users/${OWNER}/capabilities/${code}`, { level: 'read-write' });
  }
  await call('POST', '/api/business-calendars', { calendarCode: 'EU-SUPPORT', name: 'EU support' });
  await call('POST', '/api/business-calendars/EU-SUPPORT/locations', { locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin' });
  await call('POST', '/api/process-calendars', { processDefinitionKey: 'invoice-approval', calendarCode: 'EU-SUPPORT', slaBusinessDays: 2 });

  // Two passes over the one stack: the access-administration routes (tenants, members, grants,
  // subscriptions, requests) last, because fuzzing them revokes the fixture's own subscriptions and
  // grants, and every capability route after that would only ever see 403.
  const ACCESS_ADMIN = '^/api/(tenants|org)/';
  const config = await idFixtures();
  status = 0;
  for (const filter of [['--exclude-path-regex', ACCESS_ADMIN], ['--include-path-regex', ACCESS_ADMIN]]) {
    const fuzz = spawn(
      st,
      [
        '--config-file', config,
        'run', `${base}/openapi.json`,
        ...filter,
        '--checks', 'not_a_server_error,response_schema_conformance',
        '--seed', args.seed!,
        '--max-examples', args['max-examples']!,
        // One worker: Hypothesis parses lambdas with `ast` from several threads otherwise, which trips a
        // CPython 3.11 bug ("AST constructor recursion depth mismatch", gh-106905) on this machine's Python.
        '--workers', '1',
        '--request-timeout', '30',
        '--suppress-health-check', 'all',
        '--header', `X-User-Id:${OWNER}`,
        '--header', `X-Tenant-Id:${TENANT}`,
        '--header', `X-Internal-Key:${INTERNAL_KEY}`,
        '--report', 'ndjson',
        '--report-dir', join(root, '.data/fuzz'),
        '--no-color',
      ],
      { cwd: root, stdio: 'inherit' },
    );
    const code = await new Promise<number>((done) => fuzz.once('exit', (c) => done(c ?? 1)));
    if (code !== 0) status = code;
  }
} finally {
  await cleanUp();
}
process.exit(status);
