// `npm start` only (never start:api or start:worker): the secrets production must set but a
// developer should not have to think about are generated once into the data directory, so every
// documented route works on a fresh machine. Production entry points keep failing closed.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DestinationStream } from 'pino';
import { ConfigError, envName, loadSettings, settingDefs } from './config';
import { createLogger } from './logger';

export const DEV_SECRETS_FILE = 'dev-secrets.json';

/** The secret settings without which a documented route refuses, and how to make a dev value. */
const GENERATED = {
  'secrets.master-key': () => randomBytes(32).toString('base64'),
  'internal.key': () => randomBytes(32).toString('base64url'),
  'forms.embed-key': () => randomBytes(32).toString('base64url'),
} as const;

type DevSecretName = keyof typeof GENERATED;
type Stored = Partial<Record<DevSecretName, string>>;

export interface DevSecretsOutcome {
  file: string;
  generated: DevSecretName[];
  reused: DevSecretName[];
}

async function readStored(file: string): Promise<Stored> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    return JSON.parse(raw) as Stored;
  } catch {
    throw new ConfigError([`${file} is not valid JSON; fix or delete it (deleting it makes stored provider keys unreadable)`]);
  }
}

/** Written whole and renamed into place, owner-only, so a crash never leaves half a key. */
async function writeStored(file: string, stored: Stored): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

/**
 * For each generated setting the environment leaves unset, puts the value stored under the data
 * directory into `env` (so this process and every child it spawns read it through the settings
 * loader), generating and storing the ones not stored yet. Warns once per setting, by name only.
 */
export async function provideDevSecrets(
  env: Record<string, string | undefined> = process.env,
  logDestination?: DestinationStream,
): Promise<DevSecretsOutcome> {
  const settings = loadSettings(env);
  const logger = createLogger(settings, 'platform', logDestination);
  const dir = resolve(settings['data-dir']);
  const file = join(dir, DEV_SECRETS_FILE);
  const stored = await readStored(file);
  const outcome: DevSecretsOutcome = { file, generated: [], reused: [] };

  for (const [name, generate] of Object.entries(GENERATED) as Array<[DevSecretName, () => string]>) {
    if (settings[name] !== undefined) continue;
    const variable = envName(name);
    const kept = stored[name];
    if (kept !== undefined) {
      if (!settingDefs[name].schema.safeParse(kept).success) {
        throw new ConfigError([`${file} holds an invalid ${name} (value hidden); fix or delete that entry`]);
      }
      outcome.reused.push(name);
    } else {
      stored[name] = generate();
      outcome.generated.push(name);
    }
    env[variable] = stored[name];
  }

  // The sealing key likewise: without the organisation's PKCS#12, npm start seals with a generated
  // development chain (integrations/seal/dev-chain.ts keeps it under the data directory).
  if (settings['signatures.pkcs12-base64'] === undefined && env[envName('signatures.dev-chain')] === undefined) {
    env[envName('signatures.dev-chain')] = 'true';
  }

  if (outcome.generated.length > 0) {
    await mkdir(dir, { recursive: true });
    await writeStored(file, stored);
  }
  // An older or hand-made file may be readable by others; a key file never should be.
  if (outcome.generated.length + outcome.reused.length > 0) await chmod(file, 0o600);

  for (const name of outcome.generated) {
    logger.warn(
      { setting: name, variable: envName(name), file },
      `generated a development value for ${name} and stored it in ${file}; production must set ${envName(name)}`,
    );
  }
  for (const name of outcome.reused) {
    logger.warn(
      { setting: name, variable: envName(name), file },
      `using the development value of ${name} from ${file}; production must set ${envName(name)}`,
    );
  }
  return outcome;
}
