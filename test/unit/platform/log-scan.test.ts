import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { findLeaks, findTokenPaths, readLogFiles } from '../../support/log-scan';
import { PII_SENTINELS } from '../../support/pii-sentinels';

describe('the suite log scan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-scan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a sentinel that a log line leaked, with its file and line', async () => {
    // A deliberately leaking log: a plain pino logger writing a caller's phone number.
    const logger = pino(pino.destination({ dest: join(dir, 'leaky.ndjson'), sync: true }));
    logger.info('request');
    logger.warn({ customer: PII_SENTINELS.phone }, 'call failed');
    const leaks = readLogFiles(dir).flatMap((f) => findLeaks(f.text, Object.values(PII_SENTINELS), f.file));
    expect(leaks).toEqual([{ file: 'leaky.ndjson', line: 2, sentinel: PII_SENTINELS.phone }]);
  });

  it('finds nothing in clean text, and no files in a directory that does not exist', () => {
    expect(findLeaks('{"msg":"request"}\n', Object.values(PII_SENTINELS))).toEqual([]);
    expect(readLogFiles(join(dir, 'missing'))).toEqual([]);
  });

  it('finds a request line whose path holds a link token, and passes redacted ones and other routes', () => {
    const line = (path: string) => JSON.stringify({ msg: 'request', path });
    const token = 'Zx9_'.repeat(10) + 'abc';
    const text = [
      line('/sign/[redacted]'),
      line(`/api/public/embed/${token}/submit`),
      line('/api/tenants/t1/invitations'),
      line('/api/invitations/[redacted]/accept'),
      // An odd probe no route matched ('..' normalised away): too short to be a link token.
      line('/api/public/form-instances/0/'),
    ].join('\n');
    expect(findTokenPaths(text)).toEqual([{ file: '(text)', line: 2, path: `/api/public/embed/${token}/submit` }]);
  });
});
