// The API fuzzer (issue 11 §6): starts the whole stack as `npm start` does (API, worker and
// dispatcher against embedded PostgreSQL, Temporal and S3, in a fresh data directory) with the
// voice provider pointed at the Vapi stand-in, mail going to a local catcher and the public rate
// limits raised (so the logic behind them is fuzzed, not their 429); creates the tenant the OpenAPI
// examples name and the records only the server can make (scripts/fuzz-fixtures.ts), then runs the
// pinned Schemathesis (scripts/install-schemathesis.sh) in passes (scripts/fuzz-passes.ts) with a
// fixed seed and a bounded number of examples. Exit code: non-zero on any 5xx or response that
// breaks its schema. Its NDJSON reports replace the last run's in .data/fuzz/, where
// `npx tsx scripts/fuzz-report.ts` counts the statuses per operation.
//   npx tsx scripts/fuzz.ts [--max-examples N] [--seed N]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getFreePort } from '../workers/embedded/index';
import { startMailCatcher } from '../workers/embedded/mail-catcher';
import { start as startVapi } from '../test/stand-ins/vapi/server';
import { apiClient, createFixtures, OWNER, seedTenant, TENANT } from './fuzz-fixtures';
import { passes, schemathesisConfig, type OpenApi } from './fuzz-passes';

const { values: args } = parseArgs({ options: { 'max-examples': { type: 'string', default: '5' }, seed: { type: 'string', default: '20261123' } } });
const root = resolve(import.meta.dirname, '..');
const st = join(root, '.tools/schemathesis/bin/st');
if (!existsSync(st)) throw new Error('Schemathesis is not installed: run scripts/install-schemathesis.sh');

const INTERNAL_KEY = 'fuzz-internal-key-0123456789';
const PROVIDER_KEY = 'fuzz-provider-key';
const UNLIMITED = '1000000';

// The reports of this run only, so scripts/fuzz-report.ts reads exactly the last run.
const reportDir = join(root, '.data/fuzz');
await mkdir(reportDir, { recursive: true });
for (const old of (await readdir(reportDir)).filter((f) => f.endsWith('.ndjson'))) await rm(join(reportDir, old));

const dataDir = await mkdtemp(join(tmpdir(), 'platform-fuzz-'));
const vapi = await startVapi({ apiKey: PROVIDER_KEY });
const mail = await startMailCatcher({ smtpPort: await getFreePort(), webPort: await getFreePort() });
const port = await getFreePort();
const base = `http://127.0.0.1:${port}`;
let stack: ChildProcess | undefined;

async function cleanUp() {
  if (stack && stack.exitCode === null) {
    stack.kill('SIGTERM');
    await new Promise((done) => stack!.once('exit', done));
  }
  await vapi.close();
  await mail.stop();
  await rm(dataDir, { recursive: true, force: true });
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

function runPass(config: string, names: string[]) {
  const fuzz = spawn(
    st,
    [
      '--config-file', config,
      'run', `${base}/openapi.json`,
      ...names.flatMap((name) => ['--include-name', name]),
      '--checks', 'not_a_server_error,response_schema_conformance',
      // No stateful phase: the API declares no links, and the fixtures already hand each operation its records.
      '--phases', 'examples,coverage,fuzzing',
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
      '--report-dir', reportDir,
      '--no-color',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  return new Promise<number>((done) => fuzz.once('exit', (c) => done(c ?? 1)));
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
      MAIL_SMTP_URL: mail.smtpUrl,
      // The webhook fixture's endpoint is a loopback port (workers/dev.ts already allows http).
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      FORMS_RATE_LIMIT_PER_IP_PER_MINUTE: UNLIMITED,
      FORMS_RATE_LIMIT_PER_TOKEN_PER_MINUTE: UNLIMITED,
      FORMS_RATE_LIMIT_RECIPIENT_PER_IP_PER_MINUTE: UNLIMITED,
      FORMS_RATE_LIMIT_ATTACHMENTS_PER_IP_PER_MINUTE: UNLIMITED,
      FORMS_RATE_LIMIT_ATTACHMENTS_PER_TOKEN_PER_MINUTE: UNLIMITED,
      FORMS_RATE_LIMIT_RECIPIENT_PER_TOKEN_PER_MINUTE: UNLIMITED,
    },
  });
  await waitReady(Date.now() + 180_000);

  const api = apiClient(base);
  await seedTenant(api);
  const plan = await createFixtures(api, mail.webUrl);
  const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApi;
  const config = join(dataDir, 'schemathesis.toml');
  await writeFile(config, schemathesisConfig(openapi, plan));
  status = 0;
  for (const pass of passes(openapi)) {
    console.log(`== fuzz pass: ${pass.name} (${pass.operations.length} operations)`);
    const code = await runPass(config, pass.operations);
    if (code !== 0) status = code;
  }
} finally {
  await cleanUp();
}
process.exit(status);
