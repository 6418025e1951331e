import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../../workers/config';
import { DEV_SECRETS_FILE, provideDevSecrets } from '../../../workers/dev-secrets';

const VARIABLES = ['SECRETS_MASTER_KEY', 'INTERNAL_KEY', 'FORMS_EMBED_KEY'];

/** Everything the logger writes, as production would write it. */
function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join(''), lines: () => chunks.join('').trim().split('\n').map((l) => JSON.parse(l)) };
}

describe('development secrets for npm start', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dev-secrets-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates each unset secret once into an owner-only file, valid for its setting, and warns by name only', async () => {
    const env: Record<string, string | undefined> = { DATA_DIR: dataDir };
    const log = capture();
    const outcome = await provideDevSecrets(env, log.stream);

    expect(outcome.generated.sort()).toEqual(['forms.embed-key', 'internal.key', 'secrets.master-key']);
    expect(outcome.reused).toEqual([]);
    const file = join(dataDir, DEV_SECRETS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    for (const v of VARIABLES) expect(env[v]).toBeTruthy();
    expect(stored['internal.key']).toBe(env.INTERNAL_KEY);

    const settings = loadSettings(env);
    expect(settings['secrets.master-key']?.length).toBe(32);
    expect(settings['internal.key']).toBe(env.INTERNAL_KEY);
    expect(settings['forms.embed-key']).toBe(env.FORMS_EMBED_KEY);

    const warnings = log.lines().filter((l) => l.level === 40);
    expect(warnings.map((w) => w.setting).sort()).toEqual(['forms.embed-key', 'internal.key', 'secrets.master-key']);
    for (const v of VARIABLES) expect(log.text()).not.toContain(env[v]);
  });

  it('reuses the stored values on restart without rewriting them, and never logs them', async () => {
    const first: Record<string, string | undefined> = { DATA_DIR: dataDir };
    await provideDevSecrets(first, capture().stream);
    const before = await readFile(join(dataDir, DEV_SECRETS_FILE), 'utf8');

    const second: Record<string, string | undefined> = { DATA_DIR: dataDir };
    const log = capture();
    const outcome = await provideDevSecrets(second, log.stream);

    expect(outcome.generated).toEqual([]);
    expect(outcome.reused.sort()).toEqual(['forms.embed-key', 'internal.key', 'secrets.master-key']);
    for (const v of VARIABLES) expect(second[v]).toBe(first[v]);
    expect(await readFile(join(dataDir, DEV_SECRETS_FILE), 'utf8')).toBe(before);
    expect(log.lines().filter((l) => l.level === 40)).toHaveLength(3);
    for (const v of VARIABLES) expect(log.text()).not.toContain(first[v]);
  });

  it('leaves a secret the environment sets alone and neither stores nor names it', async () => {
    const env: Record<string, string | undefined> = { DATA_DIR: dataDir, INTERNAL_KEY: 'set-by-the-developer' };
    const log = capture();
    const outcome = await provideDevSecrets(env, log.stream);

    expect(outcome.generated).not.toContain('internal.key');
    expect(env.INTERNAL_KEY).toBe('set-by-the-developer');
    const stored = JSON.parse(await readFile(join(dataDir, DEV_SECRETS_FILE), 'utf8'));
    expect(stored).not.toHaveProperty('internal.key');
    expect(log.text()).not.toContain('"setting":"internal.key"');
  });

  it('writes nothing when every secret is set', async () => {
    const env = {
      DATA_DIR: dataDir,
      INTERNAL_KEY: 'k',
      FORMS_EMBED_KEY: 'e',
      SECRETS_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    const outcome = await provideDevSecrets(env, capture().stream);
    expect(outcome).toMatchObject({ generated: [], reused: [] });
    await expect(stat(join(dataDir, DEV_SECRETS_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('turns the development sealing chain on only when no PKCS#12 is set and the variable is unset', async () => {
    const bare: Record<string, string | undefined> = { DATA_DIR: dataDir };
    await provideDevSecrets(bare, capture().stream);
    expect(bare.SIGNATURES_DEV_CHAIN).toBe('true');
    const withKey: Record<string, string | undefined> = { DATA_DIR: dataDir, SIGNATURES_PKCS12_BASE64: Buffer.from('pfx').toString('base64') };
    await provideDevSecrets(withKey, capture().stream);
    expect(withKey.SIGNATURES_DEV_CHAIN).toBeUndefined();
    const refused: Record<string, string | undefined> = { DATA_DIR: dataDir, SIGNATURES_DEV_CHAIN: 'false' };
    await provideDevSecrets(refused, capture().stream);
    expect(refused.SIGNATURES_DEV_CHAIN).toBe('false');
  });

  it('tightens a stored file readable by others to owner-only', async () => {
    await provideDevSecrets({ DATA_DIR: dataDir }, capture().stream);
    const file = join(dataDir, DEV_SECRETS_FILE);
    await chmod(file, 0o644);
    await provideDevSecrets({ DATA_DIR: dataDir }, capture().stream);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a stored value its setting rejects, naming the setting but not the value', async () => {
    await writeFile(join(dataDir, DEV_SECRETS_FILE), JSON.stringify({ 'secrets.master-key': 'too-short' }), { mode: 0o600 });
    const attempt = provideDevSecrets({ DATA_DIR: dataDir }, capture().stream);
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/secrets\.master-key/);
    await expect(attempt).rejects.not.toThrow(/too-short/);
  });
});
