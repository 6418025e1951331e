// The per-process compiled-calendar cache (services/calendars/compiled-calendars.ts) without a
// database: its bound, its version rule, shared loads, and the size the metrics gauges report.
import { describe, expect, it } from 'vitest';
import { calculateSla, compileCalendar, openTimeIndexFootprint } from '../../../domain/calendar/index';
import { metricsRegistry } from '../../../integrations/metrics/registry';
import { measureCompiledCalendars } from '../../../integrations/metrics/calendars';
import { CompiledCalendarCache, compiledCalendarCacheFor, type CompiledCalendarEntry } from '../../../services/calendars/compiled-calendars';
import { loadSettings } from '../../../workers/config';
import { officeUtc } from './fixtures';

const ref = (calendarId: string, rulesVersion: number, tenantId = 't1') => ({ tenantId, calendarId, rulesVersion });

/** A loader that compiles the office calendar at `version` and counts its calls. */
function loader(version: number, code = 'CAL') {
  const calls = { n: 0 };
  const load = async (): Promise<CompiledCalendarEntry> => {
    calls.n++;
    return { rulesVersion: version, compiled: compileCalendar({ ...officeUtc(), calendarCode: code }) };
  };
  return { load, calls };
}

const due = (compiled: Parameters<typeof calculateSla>[0]) =>
  calculateSla(compiled, { receivedDateTime: '2025-04-04T16:00:00Z', sla: { businessMinutes: 120 } }).dueDateTimeUtc;

describe('compiled-calendar cache', () => {
  it('a second request at the same version is served from the cache: same object, no load', async () => {
    const cache = new CompiledCalendarCache(4);
    const a = loader(1);
    const first = await cache.resolve(ref('A', 1), a.load);
    const second = await cache.resolve(ref('A', 1), a.load);
    expect(second).toBe(first);
    expect(a.calls.n).toBe(1);
    expect(due(second!)).toBe('2025-04-07T10:00:00.000Z');
  });

  it('evicts the least recently used calendar beyond its bound', async () => {
    const cache = new CompiledCalendarCache(2);
    const loads = { A: loader(1, 'A'), B: loader(1, 'B'), C: loader(1, 'C') };
    await cache.resolve(ref('A', 1), loads.A.load);
    await cache.resolve(ref('B', 1), loads.B.load);
    await cache.resolve(ref('A', 1), loads.A.load); // A is now the most recently used
    await cache.resolve(ref('C', 1), loads.C.load); // B goes
    expect(cache.size).toBe(2);
    expect(cache.peek(ref('A', 1))).toBeDefined();
    expect(cache.peek(ref('B', 1))).toBeUndefined();
    expect(cache.peek(ref('C', 1))).toBeDefined();
    await cache.resolve(ref('B', 1), loads.B.load); // loaded again; A goes (C was used after it)
    expect(loads.B.calls.n).toBe(2);
    expect(cache.peek(ref('A', 1))).toBeUndefined();
    expect(loads.A.calls.n).toBe(1);
  });

  it('keys by tenant and calendar: the same calendar id under another tenant is another entry', async () => {
    const cache = new CompiledCalendarCache(4);
    const a = loader(1);
    await cache.resolve(ref('A', 1, 't1'), a.load);
    await cache.resolve(ref('A', 1, 't2'), a.load);
    expect(a.calls.n).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('a newer rules version replaces the entry with a new object; the old one is left as it was (frozen)', async () => {
    const cache = new CompiledCalendarCache(4);
    const old = await cache.resolve(ref('A', 1), loader(1).load);
    const v2 = loader(2);
    const fresh = await cache.resolve(ref('A', 2), v2.load);
    expect(fresh).not.toBe(old);
    expect(v2.calls.n).toBe(1);
    expect(cache.peek(ref('A', 2))?.rulesVersion).toBe(2);
    expect(Object.isFrozen(old)).toBe(true);
    expect(Object.isFrozen(fresh)).toBe(true);
    expect(Object.isFrozen(fresh!.locations)).toBe(true);
    // A frozen calendar still computes (its open-time index slot was made before freezing).
    expect(due(old!)).toBe(due(fresh!));
  });

  it('a request that read an older version than the one held uses the held, newer one', async () => {
    const cache = new CompiledCalendarCache(4);
    const held = await cache.resolve(ref('A', 5), loader(5).load);
    const stale = loader(4);
    expect(await cache.resolve(ref('A', 4), stale.load)).toBe(held);
    expect(stale.calls.n).toBe(0);
  });

  it('a load that read a newer version than asked keeps it under that version, and an older load never replaces a newer entry', async () => {
    const cache = new CompiledCalendarCache(4);
    await cache.resolve(ref('A', 1), loader(3).load); // a change committed between the version read and the load
    expect(cache.peek(ref('A', 1))?.rulesVersion).toBe(3);
    await cache.resolve(ref('A', 2), loader(3).load); // served by the held version 3
    const newer = await cache.resolve(ref('A', 4), loader(4).load);
    // A slow load that read version 2 finishing after version 4 was stored changes nothing.
    const slow = await cache.resolve(ref('A', 5), loader(2).load);
    expect(slow).not.toBe(newer);
    expect(cache.peek(ref('A', 5))?.compiled).toBe(newer);
  });

  it('concurrent misses of one calendar version load and compile it once', async () => {
    const cache = new CompiledCalendarCache(4);
    const a = loader(1);
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.resolve(ref('A', 1), a.load)));
    expect(a.calls.n).toBe(1);
    expect(new Set(results).size).toBe(1);
  });

  it('a calendar gone (load finds none) is null and its entry dropped; a failed load keeps nothing', async () => {
    const cache = new CompiledCalendarCache(4);
    await cache.resolve(ref('A', 1), loader(1).load);
    expect(await cache.resolve(ref('A', 2), async () => null)).toBeNull();
    expect(cache.size).toBe(0);
    await expect(cache.resolve(ref('B', 1), async () => Promise.reject(new Error('bad stored data')))).rejects.toThrow('bad stored data');
    expect(cache.size).toBe(0);
    const b = loader(1);
    await cache.resolve(ref('B', 1), b.load);
    expect(b.calls.n).toBe(1);
  });

  it('reports its calendars and the sum of their open-time index bytes, on the metrics gauges too', async () => {
    const cache = new CompiledCalendarCache(4);
    const a = await cache.resolve(ref('A', 1), loader(1).load);
    const b = await cache.resolve(ref('B', 1), loader(1).load);
    expect(cache.footprint()).toEqual({ calendars: 2, indexBytes: 0 });
    due(a!);
    due(b!);
    const bytes = openTimeIndexFootprint(a!).bytes + openTimeIndexFootprint(b!).bytes;
    expect(bytes).toBeGreaterThan(0);
    expect(cache.footprint()).toEqual({ calendars: 2, indexBytes: bytes });

    measureCompiledCalendars('api', () => cache.footprint());
    const calendars = await metricsRegistry.getSingleMetricAsString('platform_calendar_compiled_calendars');
    expect(calendars).toContain('platform_calendar_compiled_calendars{role="api"} 2');
    const indexBytes = await metricsRegistry.getSingleMetricAsString('platform_calendar_compiled_index_bytes');
    expect(indexBytes).toContain(`platform_calendar_compiled_index_bytes{role="api"} ${bytes}`);
    const lookups = await metricsRegistry.getSingleMetricAsString('platform_calendar_compiled_cache_lookups_total');
    expect(lookups).toMatch(/result="miss"\} \d+/);
  });

  it('the setting calendar.compiled-cache-size bounds it (default 256); 0 builds none', () => {
    expect(compiledCalendarCacheFor(loadSettings({}))?.maxCalendars).toBe(256);
    expect(compiledCalendarCacheFor(loadSettings({ CALENDAR_COMPILED_CACHE_SIZE: '3' }))?.maxCalendars).toBe(3);
    expect(compiledCalendarCacheFor(loadSettings({ CALENDAR_COMPILED_CACHE_SIZE: '0' }))).toBeUndefined();
    expect(() => new CompiledCalendarCache(0)).toThrow(RangeError);
  });
});
