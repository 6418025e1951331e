// Regenerates the typed client from the OpenAPI document the app serves (no server, no database):
//   npm run client:generate
// writes clients/typescript/openapi.json and clients/typescript/generated/. The hand-written
// wrapper (clients/typescript/index.ts) and the examples are never touched.
// test/unit/platform/client-fresh.test.ts generates into a temporary folder with the same
// function and fails when the committed files differ.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import pino from 'pino';
import { createApp } from '../api/app';
import type { AppDeps } from '../api/deps';
import { loadSettings } from '../workers/config';

export const CLIENT_DIR = resolve(import.meta.dirname, '../clients/typescript');
/** What the generator writes under a client folder; everything else there is hand-written. */
export const GENERATED_PATHS = ['openapi.json', 'generated'] as const;

/**
 * The document as the app serves it, as pretty-printed JSON. The settings are the defaults
 * (header identity mode) from an empty environment, so a developer's variables never change it.
 */
export async function servedOpenApiText(): Promise<string> {
  const settings = loadSettings({}, { 'log.level': 'silent' });
  const deps = { db: {} as AppDeps['db'], settings, logger: pino({ level: 'silent' }), readiness: {} } as AppDeps;
  const response = await createApp(deps).request('/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return `${JSON.stringify(await response.json(), null, 2)}\n`;
}

/** Writes `<dir>/openapi.json` and regenerates `<dir>/generated/` from it; `quiet` drops the banner. */
export async function generateClient(dir: string, { quiet = false } = {}): Promise<void> {
  const text = await servedOpenApiText();
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'openapi.json'), text);
  const jobs = await createClient({
    input: JSON.parse(text) as Record<string, unknown>,
    output: {
      path: join(dir, 'generated'),
      clean: true,
      // Pinned rather than detected: the generator otherwise looks for a tsconfig above its own
      // install folder, and a temporary folder must get the same bytes as the committed one.
      tsConfigPath: null,
      module: { extension: null },
      postProcess: [],
    },
    plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
    logs: { level: quiet ? 'silent' : 'error', file: false },
  });
  // The generator answers a document it cannot read with no job rather than an error.
  if (jobs.length !== 1) throw new Error(`@hey-api/openapi-ts generated ${jobs.length} clients from the served document, not 1`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generateClient(CLIENT_DIR);
  process.stdout.write(`regenerated ${GENERATED_PATHS.map((p) => `clients/typescript/${p}`).join(' and ')}\n`);
}
