import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client';
import { documentRoutes } from '../../../api/documents/routes';
import type { Mailer } from '../../../integrations/mail/mailer';
import { loadSettings } from '../../../workers/config';

const build = (scan: 'off' | 'clamav') => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) }));
  documentRoutes({ db: {} as Db, settings: loadSettings({}, { 'docstore.scan': scan }), logger, mailer: {} as Mailer, readiness: {} });
  return lines;
};

describe('docstore.scan at start-up', () => {
  it('off (the default) logs a warning that uploads become READY unscanned', () => {
    expect(loadSettings({})['docstore.scan']).toBe('off');
    const lines = build('off');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: expect.stringContaining('without a malware scan') });
  });

  it('clamav logs no warning', () => {
    expect(build('clamav')).toEqual([]);
  });
});
