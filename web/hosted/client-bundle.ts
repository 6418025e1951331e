// Browser scripts built from this repository's TypeScript with esbuild, once per process on first
// use: the hosted form's script ships the server's own validation code (domain/forms), so the
// browser and the server cannot disagree about what a valid submission is. No build step: the
// bundle lives in memory, named by its content hash.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ClientScript {
  code: string;
  /** First 16 hex digits of the SHA-256 of `code`: the file name part and the ETag. */
  hash: string;
}

const built = new Map<string, Promise<ClientScript>>();

async function bundle(entry: string): Promise<ClientScript> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

/** The bundle of `entry` (a module URL); a failed build is not cached, so the next request tries again. */
export function clientScript(entry: URL): Promise<ClientScript> {
  const path = fileURLToPath(entry);
  let script = built.get(path);
  if (!script) {
    script = bundle(path);
    built.set(path, script);
    script.catch(() => built.delete(path));
  }
  return script;
}
