// The intake's write-back logs its failures and does not rethrow them (spec), except one: PostgreSQL
// out of reach. That write-back was not refused but not made yet, so the activity fails retryably
// and Temporal runs it again; swallowed, a database restart left the instance SUBMITTED for good
// (bench/faults.bench.ts found it). The database here is a port nothing listens on.
import { ApplicationFailure } from '@temporalio/common';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createFormActivities } from '../../../activities/forms';
import { createDatabase } from '../../../db/client';
import { loadSettings } from '../../../workers/config';
import { getFreePort } from '../../../workers/embedded/child-process';
import { createWorkerIntegrations } from '../../../workers/worker-integrations';

const database = createDatabase(`postgres://nobody:nothing@127.0.0.1:${await getFreePort()}/none`, { max: 1, connectTimeoutMs: 2_000 });
afterAll(() => database.sql.end({ timeout: 0 }));

describe('the intake write-back with the database out of reach', () => {
  it('fails retryably as database-unavailable instead of reporting the instance not written back', async () => {
    const settings = loadSettings({}, { 'log.level': 'silent' });
    const activities = createFormActivities(createWorkerIntegrations({ db: database.db, settings, logger: pino({ level: 'silent' }) }));
    const failure = await activities.writeBackFormInstance('acme', '00000000-0000-4000-8000-000000000000', 'run-1').then(
      () => expect.unreachable('the write-back answered'),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'database-unavailable', nonRetryable: false });
  });
});
