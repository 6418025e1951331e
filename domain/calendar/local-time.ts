/**
 * Local-time arithmetic on epoch milliseconds, split by what it holds: civil dates, zone offsets,
 * instant parsing and ISO formatting. Re-exported here so callers import one module.
 */
export * from './civil-date.js';
export * from './time-zones.js';
export * from './instant-input.js';
export * from './iso-format.js';
