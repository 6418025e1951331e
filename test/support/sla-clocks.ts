import { expect } from 'vitest';
import { client, type TestContext, type Who } from './app';

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** Calendar `code` open around the clock (one UTC location, 00:00-24:00 every day) with association `key`, through the API. */
export async function createAlwaysOpenCalendar(ctx: TestContext, who: Who, code: string, key: string) {
  const api = client(ctx);
  const cal = await api.post('/api/business-calendars', who, { calendarCode: code, name: `Always ${code}` });
  expect(cal.status, cal.text).toBe(201);
  const loc = await api.post(`/api/business-calendars/${code}/locations`, who, { locationCode: 'UTC', name: 'UTC', timezone: 'UTC' });
  expect(loc.status, loc.text).toBe(201);
  for (const dayOfWeek of EVERY_DAY) {
    const h = await api.post(`/api/business-calendars/${code}/locations/UTC/business-hours`, who, { dayOfWeek, startTime: '00:00', endTime: '24:00' });
    expect(h.status, h.text).toBe(201);
  }
  const assoc = await api.post('/api/process-calendars', who, { processDefinitionKey: key, calendarCode: code });
  expect(assoc.status, assoc.text).toBe(201);
}

export const MINUTE = 60_000;
export const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
