// The walkthroughs of README.md and docs/signatures.md, run as written: `workers/dev.ts` (what
// `npm start` runs) on a fresh data directory with every part embedded, then every ```bash block of
// each `## Walkthrough` section in order, with only the base URLs replaced by this run's ports.
// Starting the platform is the expensive part, so one start serves both (each walkthrough has a
// tenant of its own). If a document and the code part, this fails.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { DEV_SECRETS_FILE } from '../../../workers/dev-secrets';
import { startTsa, type TsaStandIn } from '../../stand-ins/tsa/server';
import { startEntryPoint, type EntryPoint } from '../../support/entry-point';
import { runScripts, sectionScripts } from '../../support/markdown-scripts';

const ROOT = resolve(import.meta.dirname, '../../..');
const README = resolve(ROOT, 'README.md');
const SIGNATURES = resolve(ROOT, 'docs/signatures.md');
// The URLs the documents name, as `npm start` prints them on a machine with the ports free.
const DOC_API = 'http://localhost:3000';
const DOC_UI = 'http://localhost:8233';
const DOC_MAIL = 'http://127.0.0.1:1080';

describe('walkthroughs against a fresh npm start', () => {
  let dataDir: string;
  let platform: EntryPoint | undefined;
  let tsa: TsaStandIn | undefined;
  let api: string;
  let ui: string;
  let mail: string;
  const workDirs: string[] = [];

  /** Runs the `## Walkthrough` blocks of `file` in a fresh directory; answers that directory and the output. */
  const walk = async (file: string, timeoutMs: number) => {
    const cwd = await mkdtemp(join(tmpdir(), 'walkthrough-cwd-'));
    workDirs.push(cwd);
    const blocks = sectionScripts(await readFile(file, 'utf8'), 'Walkthrough');
    const urls = { [DOC_API]: api, [DOC_UI]: ui, [DOC_MAIL]: mail };
    return { cwd, ...(await runScripts(blocks, { urls, cwd, timeoutMs, context: () => platform?.output() ?? '' })) };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'walkthrough-data-'));
    // The seal's timestamp authority is the one outside provider: digicert in the document, the local stand-in here.
    tsa = await startTsa();
    const [port, uiPort] = [await getFreePort(), await getFreePort()];
    api = `http://localhost:${port}`;
    ui = `http://localhost:${uiPort}`;
    platform = startEntryPoint('workers/dev.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_UI_PORT: String(uiPort),
      // What the default (http://localhost:3000) is on a user's machine: the links in the mails point at this API.
      PUBLIC_BASE_URL: api,
      SIGNATURES_TSA_URL: tsa.url,
      ACCESS_OPERATORS: 'ops',
      LOG_LEVEL: 'info',
    });
    await platform.waitFor(`${api}/health/ready`, 170_000);
    // The mail catcher takes 1080 only when it is free, and prints where it is.
    const printed = /Sent mail +(http:\/\/127\.0\.0\.1:\d+)/.exec(platform.output());
    if (!printed) throw new Error(`npm start printed no mail catcher:\n${platform.output()}`);
    mail = printed[1]!;
  }, 200_000);

  afterAll(async () => {
    await platform?.stop();
    await tsa?.stop();
    for (const dir of [dataDir, ...workDirs]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('README.md', () => {
    let out: string;

    beforeAll(async () => {
      out = (await walk(README, 150_000)).stdout;
    });

    it('finds the walkthrough: the base URLs first, then the steps', async () => {
      const blocks = sectionScripts(await readFile(README, 'utf8'), 'Walkthrough');
      expect(blocks.length).toBeGreaterThanOrEqual(8);
      expect(blocks[0]).toContain(`API=${DOC_API}`);
      expect(blocks[0]).toContain(`UI=${DOC_UI}`);
    });

    it('takes a new user from a fresh start to the workflow the submission started', () => {
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

  describe('docs/signatures.md', () => {
    let out: string;
    let cwd: string;

    beforeAll(async () => {
      // The script waits for the ceremony itself (mails, the seal), each wait bounded at two minutes.
      const run = await walk(SIGNATURES, 420_000);
      ({ stdout: out, cwd } = run);
    }, 450_000);

    it('finds the walkthrough: the API and the mail catcher first, then the steps', async () => {
      const blocks = sectionScripts(await readFile(SIGNATURES, 'utf8'), 'Walkthrough');
      expect(blocks.length).toBeGreaterThanOrEqual(10);
      expect(blocks[0]).toContain(`API=${DOC_API}`);
      expect(blocks[0]).toContain(`MAIL=${DOC_MAIL}`);
    });

    it('sets up a tenant and publishes a definition with its PDF and the fields of two signers', () => {
      expect(out).toContain('{"id":"initech","name":"Initech Ltd"}');
      expect(out).toContain('{"capabilityCode":"SIGNATURES","status":"ACTIVE"}');
      expect(out).toContain('{"capabilityCode":"SIGNATURES","level":"read-write"}');
      expect(out).toMatch(/^\{"code":"SG-[A-Z0-9]{4}\d{2}[A-Z]{3}\d{2}","status":"DRAFT","problems":\["[^\n]+\]\}$/m);
      expect(out).toContain('{"name":"agreement.pdf","pageCount":1}');
      expect(out).toContain('{"document":"agreement.pdf","signers":["customer","supplier"],"problems":[]}');
      expect(out).toContain('{"status":"PUBLISHED","publishedVersion":1}');
    });

    it('starts a campaign that mails the first signer, then the second once the first signed', () => {
      expect(out).toContain(
        '{"status":"PENDING","recipients":[{"signerId":"customer","status":"R_PENDING"},{"signerId":"supplier","status":"R_WAITING"}]}',
      );
      expect(out).toMatch(new RegExp(`^${api}/sign/[A-Za-z0-9_-]{20,}$`, 'm'));
      expect(out).toContain('{"signer":"Customer","status":"R_OPENED","fields":["SIGNATURE","DATE"],"routing":{"order":1,"groups":2}}');
      expect(out).toContain('{"signerId":"customer","status":"R_SIGNED","instanceStatus":"OPENED"}');
      expect(out).toContain('{"signer":"Supplier","status":"R_OPENED"}');
      expect(out).toContain('{"signerId":"supplier","status":"R_SIGNED","instanceStatus":"COMPLETED"}');
    });

    it('ends SEALED, every signer signed', () => {
      expect(out).toContain(
        '{"status":"COMPLETED","sealStatus":"SEALED","sealError":null,' +
          '"recipients":[{"signerId":"customer","status":"R_SIGNED"},{"signerId":"supplier","status":"R_SIGNED"}]}',
      );
    });

    it('downloads a sealed PDF whose signature covers the whole file and which pdfsig finds valid', async () => {
      expect(out).toMatch(/^%PDF-$/m);
      expect(out).toMatch(/^\/SubFilter \/ETSI\.CAdES\.detached$/m);
      expect(out).toMatch(/^\/ByteRange \[0 \d+ \d+ \d+\]$/m);
      expect(out).toContain('Signature is Valid');
      expect(out).toContain('Total document signed');

      const pdf = await readFile(join(cwd, 'signed.pdf'));
      const [, a, b, c] = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(pdf.toString('latin1'))!.map(Number);
      expect(b! + c!).toBe(pdf.length);
      expect(String.fromCharCode(pdf[a!]!, pdf[b! - 1]!)).toBe('<>');
    });

    it('logged none of the names and addresses the campaign was given', () => {
      const output = platform!.output();
      for (const pii of ['Ann Customer', 'ann@example.com', 'Sam Supplier', 'sam@example.com']) expect(output).not.toContain(pii);
    });
  });
});
