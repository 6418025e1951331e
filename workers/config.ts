import { envName, settingDefs, type SettingName, type Settings } from '../domain/settings';
import { authSettingProblems } from '../domain/auth-settings';

export { envName, settingDefs, type Settings } from '../domain/settings';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads every setting from the given environment (the only place `process.env` is read is
 * the default argument). Invalid values stop start-up with a message naming the variable;
 * secret values are never echoed.
 */
export function loadSettings(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Settings> = {},
): Settings {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(settingDefs)) {
    if (name in overrides) {
      out[name] = overrides[name as SettingName];
      continue;
    }
    const variable = envName(name);
    const raw = env[variable] ?? d.default ?? '';
    const parsed = d.schema.safeParse(raw);
    if (parsed.success) {
      out[name] = parsed.data;
    } else {
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      const shown = d.secret ? '(value hidden)' : JSON.stringify(raw);
      problems.push(`${variable}=${shown} is invalid for setting ${name}: ${why}`);
    }
  }
  // Rules across settings, once each setting parsed on its own.
  problems.push(...authSettingProblems(out as Partial<Settings>));
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Settings;
}
