// The committed TypeScript client is what a fresh generation from the served OpenAPI document
// gives, byte for byte: an API change without `npm run client:generate` fails here, naming it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIR, GENERATED_PATHS, generateClient } from '../../../scripts/generate-client';

const FIX = 'run `npm run client:generate` and commit clients/typescript';

/** Every file under `dir`'s generated paths, relative to `dir`, sorted. */
async function generatedFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOTDIR') return null;
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    if (entries === null) out.push(relative(dir, path));
    else for (const e of entries) await visit(join(path, e.name));
  };
  for (const p of GENERATED_PATHS) await visit(join(dir, p));
  return out.sort();
}

describe('the committed TypeScript client', () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = await mkdtemp(join(tmpdir(), 'client-fresh-'));
    await generateClient(fresh, { quiet: true });
  }, 120_000);
  afterAll(async () => {
    if (fresh) await rm(fresh, { recursive: true, force: true });
  });

  it('has the files a fresh generation writes, and no others', async () => {
    expect(await generatedFiles(CLIENT_DIR), `clients/typescript is stale: ${FIX}`).toEqual(await generatedFiles(fresh));
  });

  it('matches a fresh generation byte for byte', async () => {
    const stale: string[] = [];
    for (const file of await generatedFiles(fresh)) {
      const committed = await readFile(join(CLIENT_DIR, file)).catch(() => undefined);
      if (!committed?.equals(await readFile(join(fresh, file)))) stale.push(file);
    }
    expect(stale, `these files differ from a fresh generation: ${FIX}`).toEqual([]);
  });
});
