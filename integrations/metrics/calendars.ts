import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry';

/** What a process's compiled-calendar cache holds right now. */
export interface CompiledCalendarCacheSize {
  /** Compiled calendars kept. */
  calendars: number;
  /** Sum of their open-time indexes' bytes (`openTimeIndexFootprint(...).bytes`). */
  indexBytes: number;
}

/** The role's cache (api, worker; both in one process under `npm start`), read at scrape time. */
const sources = new Map<string, () => CompiledCalendarCacheSize>();

new Gauge({
  name: 'platform_calendar_compiled_calendars',
  help: 'Compiled calendars this process keeps across requests (setting calendar.compiled-cache-size), by role (api, worker).',
  labelNames: ['role'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [role, read] of sources) this.set({ role }, read().calendars);
  },
});

new Gauge({
  name: 'platform_calendar_compiled_index_bytes',
  help: 'Bytes of the open-time indexes of the compiled calendars this process keeps (each bounded, 1 MiB by default), by role (api, worker).',
  labelNames: ['role'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [role, read] of sources) this.set({ role }, read().indexBytes);
  },
});

const lookups = new Counter({
  name: 'platform_calendar_compiled_cache_lookups_total',
  help: 'Compiled-calendar cache lookups by result: hit, miss (not held) or stale (held at an older rules version); miss and stale load and compile the calendar.',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

/** The composition root registers its process's cache under its role (a later one replaces an earlier one of that role). */
export function measureCompiledCalendars(role: 'api' | 'worker', read: () => CompiledCalendarCacheSize) {
  sources.set(role, read);
}

export const countCompiledCalendarLookup = (result: 'hit' | 'miss' | 'stale') => lookups.inc({ result });
