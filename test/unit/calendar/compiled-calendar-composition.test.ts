// The worker's composition root builds one compiled-calendar cache per worker process, sized by
// calendar.compiled-cache-size, and hands it to the calendar activities (which build none).
import pino from 'pino';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityDeps } from '../../../activities/deps';
import type { Db } from '../../../db/client';
import { CompiledCalendarCache } from '../../../services/calendars/compiled-calendars';
import { loadSettings } from '../../../workers/config';
import { createActivities } from '../../../workers/worker-activities';

const seen = vi.hoisted(() => ({ given: [] as Array<Partial<ActivityDeps>> }));

vi.mock('../../../activities/calendars', async (load) => {
  const real = await load<typeof import('../../../activities/calendars')>();
  return {
    ...real,
    createCalendarActivities: (deps: Parameters<typeof real.createCalendarActivities>[0]) => (seen.given.push(deps), real.createCalendarActivities(deps)),
  };
});

const worker = (env: Record<string, string> = {}) => createActivities({ db: {} as Db, settings: loadSettings(env), logger: pino({ level: 'silent' }) });

describe('the worker’s compiled-calendar cache', () => {
  beforeEach(() => {
    seen.given = [];
  });

  it('is built once per worker process, sized by the setting, and handed to the calendar activities', () => {
    worker({ CALENDAR_COMPILED_CACHE_SIZE: '7' });
    worker({ CALENDAR_COMPILED_CACHE_SIZE: '7' });
    expect(seen.given).toHaveLength(2);
    const [a, b] = seen.given.map((d) => d.compiledCalendars);
    expect(a).toBeInstanceOf(CompiledCalendarCache);
    expect(a!.maxCalendars).toBe(7);
    expect(b).toBeInstanceOf(CompiledCalendarCache);
    expect(b).not.toBe(a);
  });

  it('is not built when the setting is 0 (each due date compiles its calendar)', () => {
    worker({ CALENDAR_COMPILED_CACHE_SIZE: '0' });
    expect(seen.given[0]!.compiledCalendars).toBeUndefined();
  });
});
