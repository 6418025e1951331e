import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, loadSettings, settingDefs } from '../../../workers/config';

describe('settings', () => {
  it('maps a.b-c to A_B_C', () => {
    expect(envName('docstore.max-bytes')).toBe('DOCSTORE_MAX_BYTES');
    expect(envName('phone.webhook-secret')).toBe('PHONE_WEBHOOK_SECRET');
    expect(envName('database.url')).toBe('DATABASE_URL');
  });

  it('applies defaults when the environment is empty', () => {
    const s = loadSettings({});
    expect(s.port).toBe(3000);
    expect(s['internal.key']).toBeUndefined();
    expect(s['access.operator-groups']).toEqual(['platform-operators']);
    expect(s['dispatcher.enabled']).toBe(true);
  });

  it('parses typed values from the environment', () => {
    const s = loadSettings({ PORT: '8080', DISPATCHER_ENABLED: 'false', ACCESS_OPERATORS: 'a, b ,,c' });
    expect(s.port).toBe(8080);
    expect(s['dispatcher.enabled']).toBe(false);
    expect(s['access.operators']).toEqual(['a', 'b', 'c']);
  });

  it('stops with a message naming every invalid variable, never echoing a secret', () => {
    let error: unknown;
    try {
      loadSettings({ PORT: 'eighty', DISPATCHER_ENABLED: 'perhaps', SECRETS_MASTER_KEY: 'c2hvcnQ=' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('DISPATCHER_ENABLED');
    expect(message).toContain('SECRETS_MASTER_KEY=(value hidden)');
    expect(message).not.toContain('c2hvcnQ=');
  });

  it('refuses a clamd deadline the scan activity could not wait for (its start-to-close is 10 minutes)', () => {
    expect(loadSettings({ DOCSTORE_CLAMAV_TIMEOUT_MS: '540000' })['docstore.clamav-timeout-ms']).toBe(540_000);
    expect(() => loadSettings({ DOCSTORE_CLAMAV_TIMEOUT_MS: '600000' })).toThrow(/DOCSTORE_CLAMAV_TIMEOUT_MS/);
  });

  it('every setting appears in the README settings table with its environment variable', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(settingDefs)) {
      expect(readme, `README lacks ${name}`).toContain(`\`${name}\``);
      expect(readme, `README lacks ${envName(name)}`).toContain(`\`${envName(name)}\``);
    }
  });
});
