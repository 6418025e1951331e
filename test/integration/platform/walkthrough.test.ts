// The README's walkthrough, run as written: `workers/dev.ts` (what `npm start` runs) on a fresh
// data directory with every part embedded, then every ```bash block of the section in order, with
// only the two base URLs replaced by this run's ports. If the README and the code part, this fails.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { DEV_SECRETS_FILE } from '../../../workers/dev-secrets';
import { startEntryPoint, type EntryPoint } from '../../support/entry-point';

const README = resolve(import.meta.dirname, '../../../README.md');
const README_API = 'http://localhost:3000';
const README_UI = 'http://localhost:8233';

/** The ```bash blocks of the README section `## <title>`, in order. */
function sectionScripts(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section "## ${title}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('README walkthrough against a fresh npm start', () => {
  let dataDir: string;
  let workDir: string;
  let platform: EntryPoint | undefined;
  let api: string;
  let ui: string;
  let run: { stdout: string; stderr: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'walkthrough-data-'));
    workDir = await mkdtemp(join(tmpdir(), 'walkthrough-cwd-'));
    const [port, uiPort] = [await getFreePort(), await getFreePort()];
    api = `http://localhost:${port}`;
    ui = `http://localhost:${uiPort}`;
    platform = startEntryPoint('workers/dev.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_UI_PORT: String(uiPort),
      ACCESS_OPERATORS: 'ops',
      LOG_LEVEL: 'info',
    });
    await platform.waitFor(`${api}/health/ready`, 170_000);

    const blocks = sectionScripts(await readFile(README, 'utf8'), 'Walkthrough');
    const script = blocks.join('\n').replaceAll(README_API, api).replaceAll(README_UI, ui);
    run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: workDir, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 }).catch(
      (err: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`the walkthrough failed: ${err.message}\n--- stdout\n${err.stdout}\n--- stderr\n${err.stderr}\n--- platform\n${platform?.output()}`);
      },
    );
  });

  afterAll(async () => {
    await platform?.stop();
    for (const dir of [dataDir, workDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the walkthrough: the base URLs first, then the steps', async () => {
    const blocks = sectionScripts(await readFile(README, 'utf8'), 'Walkthrough');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(blocks[0]).toContain(`API=${README_API}`);
    expect(blocks[0]).toContain(`UI=${README_UI}`);
  });

  it('takes a new user from a fresh start to the workflow the submission started', () => {
    const out = run.stdout;
    expect(out).toContain('{"isOperator":true,"isOwner":false}');
    for (const cap of ['FORMS', 'CALENDAR', 'SLA', 'PHONE']) {
      expect(out).toContain(`{"capabilityCode":"${cap}","status":"ACTIVE"}`);
      expect(out).toContain(`{"capabilityCode":"${cap}","level":"read-write"}`);
    }
    expect(out).toContain('{"hasApiKey":true,"providerKeySource":"tenant"}');
    expect(out).toMatch(/^submission [0-9a-f-]{36}$/m);
    expect(out).toMatch(/\{"status":"READY","sizeBytes":29,"sha256":"[0-9a-f]{64}"\}/);
    expect(out).toContain('{"dueDateTimeLocal":"2026-03-30T17:00:00.000+02:00","dueDateTimeUtc":"2026-03-30T15:00:00.000Z"}');
    expect(out).toMatch(/\{"state":"PROCESSED","outbox":"CLOSED","runId":"[0-9a-f-]{36}"\}/);
    expect(out).toContain(`${ui}/namespaces/default/workflows/forms:acme:`);
    expect(out).toContain('{"type":"formIntake","status":"WORKFLOW_EXECUTION_STATUS_COMPLETED"}');
  });

  it('generated the development secrets into an owner-only file and named them without their values', async () => {
    const file = join(dataDir, DEV_SECRETS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual(['forms.embed-key', 'internal.key', 'secrets.master-key']);
    const output = platform!.output();
    for (const [name, value] of Object.entries(stored)) {
      expect(output).toContain(`generated a development value for ${name}`);
      expect(output).not.toContain(value);
    }
  });

  it("warns of the AWS SDK's coming Node 22 requirement only on Node 20", () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(platform!.output().includes('NodeVersionSupportWarning')).toBe(major < 22);
  });
});
