import { describe, expect, it } from 'vitest';
import { findLeaks, findTokenPaths, readLogFiles } from '../support/log-scan';
import { FIXTURE_PII } from '../support/pii-sentinels';
import { SUITE_LOG_DIR } from '../support/suite-log';

// Runs after the integration suite (vitest project `log-scan`, groupOrder 2), over what it logged.
describe('the logs of the integration suite', () => {
  const files = readLogFiles(SUITE_LOG_DIR);

  it('exist: the suite ran in this invocation and its apps logged requests and errors', () => {
    expect(files.length, `no logs in ${SUITE_LOG_DIR}: run the whole suite (npx vitest run)`).toBeGreaterThan(0);
    const all = files.map((f) => f.text).join('');
    expect(all).toContain('"msg":"request"');
    expect(all).toContain('"code":"23505"');
  });

  it('hold none of the personal data the fixtures sent', () => {
    const leaks = files.flatMap((f) => findLeaks(f.text, FIXTURE_PII, f.file));
    expect(leaks).toEqual([]);
  });

  it('hold no bearer token of a signing, respond, embed or invitation link: their request paths are redacted', () => {
    expect(files.flatMap((f) => findTokenPaths(f.text, f.file))).toEqual([]);
    const all = files.map((f) => f.text).join('');
    for (const link of ['/sign/', '/respond/', '/embed/', '/api/public/form-instances/', '/api/public/sign-instance/', '/api/invitations/']) expect(all).toContain(`"path":"${link}[redacted]`);
  });
});
