// The README's TypeScript walkthrough, run as written: clients/typescript/examples/walkthrough.ts,
// which the README shows verbatim (checked here), in its own process against the real API
// listening on a port, with only its API base URL given. Then the wrapper's promises: the
// identity headers it sends, and which failures become PlatformProblems.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApiMyAccess, postApiTenants } from '../../../clients/typescript/generated';
import { createPlatformClient, PlatformProblem, UNEXPECTED_RESPONSE } from '../../../clients/typescript/index';
import { startServer, type RunningServer } from '../../../api/server';
import { useTestApp } from '../../support/app';

const ROOT = resolve(import.meta.dirname, '../../..');
const EXAMPLE = 'clients/typescript/examples/walkthrough.ts';
const TSX_CLI = resolve(ROOT, 'node_modules/tsx/dist/cli.mjs');

describe('the typed client against the real API', () => {
  // `ops` is the walkthrough's operator (ACCESS_OPERATORS=ops under npm start).
  const ctx = useTestApp({ 'access.operators': ['ops'] });
  let server: RunningServer;
  let api: string;

  beforeAll(async () => {
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    api = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows the example in the README exactly as the file holds it', async () => {
    const [readme, example] = await Promise.all([readFile(resolve(ROOT, 'README.md'), 'utf8'), readFile(resolve(ROOT, EXAMPLE), 'utf8')]);
    expect(readme.includes(`\n\`\`\`ts\n${example}\`\`\`\n`), `README.md must show ${EXAMPLE} verbatim in a \`\`\`ts block: copy the file into it`).toBe(true);
  });

  it('runs the example: a tenant, a repeated create answered as a problem value, grants, a form, a thrown 404', async () => {
    const env = { ...process.env, API: api };
    const run = await promisify(execFile)(process.execPath, [TSX_CLI, EXAMPLE], { cwd: ROOT, env, timeout: 50_000 }).catch(
      (err: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`the example failed: ${err.message}\n--- stdout\n${err.stdout}\n--- stderr\n${err.stderr}`);
      },
    );
    expect(run.stdout.split('\n')).toEqual([
      'tenant globex; again: 409 tenant-exists',
      'FORMS ACTIVE, alice read-write, form "Feedback" DRAFT',
      expect.stringMatching(/^404 definition-not-found: \S/),
      '',
    ]);
  });

  it('sends the identity and tenant headers it was given, and only those', async () => {
    const sent: Headers[] = [];
    const spy: typeof fetch = (input, init) => {
      sent.push(new Request(input, init).headers);
      return fetch(input, init);
    };
    const full = createPlatformClient({ baseUrl: api, userId: 'ops', tenantId: 'globex', bearer: 'a.b.c', fetch: spy });
    await getApiMyAccess({ client: full });
    const bare = createPlatformClient({ baseUrl: api, fetch: spy });
    await getApiMyAccess({ client: bare });
    expect(sent.map((h) => [h.get('x-user-id'), h.get('x-tenant-id'), h.get('authorization')])).toEqual([
      ['ops', 'globex', 'Bearer a.b.c'],
      [null, null, null],
    ]);
  });

  it('returns a problem+json answer as a PlatformProblem carrying the whole document', async () => {
    const client = createPlatformClient({ baseUrl: api, userId: 'bob' });
    const { data, error, response } = await postApiTenants({ client, body: { id: 'Not An Id', name: '' } });
    expect(data).toBeUndefined();
    expect(response?.status).toBe(400);
    expect(error).toBeInstanceOf(PlatformProblem);
    const problem = error as PlatformProblem;
    expect(problem).toMatchObject({ status: 400, title: 'Bad Request', code: expect.any(String), detail: expect.any(String) });
    expect(problem.body).toMatchObject({ status: 400, code: problem.code, requestId: problem.requestId });
    expect(problem.message).toBe(`400 ${problem.code}: ${problem.detail}`);
  });

  it('throws the PlatformProblem with throwOnError', async () => {
    const client = createPlatformClient({ baseUrl: api });
    const thrown = await getApiMyAccess({ client, throwOnError: true }).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(PlatformProblem);
    expect(thrown).toMatchObject({ status: 400, code: 'missing-header', title: 'Bad Request' });
  });

  it('makes a failed answer that is no problem document a PlatformProblem of its own code', async () => {
    // A proxy in front of the API answering with its own page: a stand-in fetch plays it.
    const proxyPage: typeof fetch = async () => new Response('<html>502 Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } });
    const client = createPlatformClient({ baseUrl: api, userId: 'alice', fetch: proxyPage });
    const { error } = await getApiMyAccess({ client });
    expect(error).toBeInstanceOf(PlatformProblem);
    expect(error).toMatchObject({ status: 502, code: UNEXPECTED_RESPONSE, title: 'Bad Gateway', type: 'about:blank' });
    expect((error as PlatformProblem).detail).toContain('text/html');
  });

  it('leaves a network failure as the fetch error it is', async () => {
    const client = createPlatformClient({ baseUrl: 'http://127.0.0.1:9', userId: 'alice' });
    const { error, response } = await getApiMyAccess({ client });
    expect(response).toBeUndefined();
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(PlatformProblem);
  });
});
