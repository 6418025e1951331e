import { describe, expect, it } from 'vitest';
import {
  type ImportedHoliday,
  calculateSla,
  importedToHolidayInput,
  listAvailableCountries,
  mergeImportedHolidays,
  previewHolidays,
} from '../../../domain/calendar/index.js';
import { WEEKDAYS, calendar, hours, location } from './fixtures.js';
import { engineError } from './sla-helpers.js';

const find = (list: ImportedHoliday[], date: string) => list.filter((h) => h.date === date);

describe('available countries', () => {
  it('lists countries of the offline data with their regions (states)', () => {
    const countries = listAvailableCountries();
    const de = countries.find((c) => c.countryCode === 'DE');
    expect(de?.name).toBe('Germany');
    expect(de?.regions).toContainEqual({ regionCode: 'BY', name: 'Bayern' });
    expect(countries.find((c) => c.countryCode === 'US')?.regions.map((r) => r.regionCode)).toContain('CA');
    expect(countries.length).toBeGreaterThan(100);
    const codes = countries.map((c) => c.countryCode);
    expect([...codes].sort()).toEqual(codes);
  });
});

describe('holiday preview', () => {
  it('gives public holidays by default as closed days (Germany 2024, national only)', () => {
    const de = previewHolidays({ country: 'de', year: 2024 });
    expect(find(de, '2024-10-03')).toEqual([
      { date: '2024-10-03', name: 'National Holiday', type: 'public', closed: true, substitute: false },
    ]);
    expect(de.every((h) => h.type === 'public')).toBe(true);
    expect(find(de, '2024-12-24')).toEqual([]); // Christmas Eve is a bank holiday, not public
    expect(find(de, '2024-01-06')).toEqual([]); // Epiphany is regional
  });

  it('a region adds its own public holidays (Bayern: Epiphany)', () => {
    const by = previewHolidays({ country: 'DE', region: 'by', year: 2024 });
    expect(find(by, '2024-01-06').map((h) => h.name)).toEqual(['Epiphany']);
  });

  it('other types on request; a holiday from 14:00 becomes a narrowed day open 00:00-14:00', () => {
    const bank = previewHolidays({ country: 'DE', year: 2024, types: ['bank'] });
    expect(find(bank, '2024-12-24')).toEqual([
      { date: '2024-12-24', name: 'Christmas Eve', type: 'bank', closed: false, openFrom: '00:00', openUntil: '14:00', substitute: false },
    ]);
    expect(bank.every((h) => h.type === 'bank')).toBe(true);
  });

  it('a holiday until 14:00 becomes a narrowed day open 14:00-24:00 (Brazil, Ash Wednesday)', () => {
    const br = previewHolidays({ country: 'BR', year: 2024, types: ['optional'] });
    expect(find(br, '2024-02-14')).toMatchObject([{ closed: false, openFrom: '14:00', openUntil: '24:00' }]);
  });

  it('substitute days are flagged (United States 2021: Christmas observed on Friday 24 December)', () => {
    const us = previewHolidays({ country: 'US', year: 2021 });
    expect(find(us, '2021-12-24')).toMatchObject([{ closed: true, substitute: true }]);
    expect(find(us, '2021-12-25')).toMatchObject([{ closed: true, substitute: false }]);
  });

  it('multi-day holidays that start at the previous sunset become whole civil dates (UAE 2024, Eid al-Fitr 3 days)', () => {
    const ae = previewHolidays({ country: 'AE', year: 2024 });
    const eid = ae.filter((h) => h.name === 'End of Ramadan (Eid al-Fitr)');
    expect(eid.map((h) => [h.date, h.closed])).toEqual([
      ['2024-04-10', true],
      ['2024-04-11', true],
      ['2024-04-12', true],
    ]);
    expect(find(ae, '2024-04-09')).toEqual([]); // the eve is not cut
  });

  it('a date touched only inside a DST gap gets no entry (Egypt 2024: DST starts at midnight after Sinai Liberation Day)', () => {
    const eg = previewHolidays({ country: 'EG', year: 2024 });
    expect(find(eg, '2024-04-25')).toMatchObject([{ name: 'Sinai Liberation Day', closed: true }]);
    expect(find(eg, '2024-04-26')).toEqual([]);
  });

  it('several years at once, sorted by date', () => {
    const fr = previewHolidays({ country: 'FR', years: [2025, 2024] });
    expect(fr.filter((h) => h.date.endsWith('-07-14')).map((h) => h.date)).toEqual(['2024-07-14', '2025-07-14']);
    const dates = fr.map((h) => h.date);
    expect([...dates].sort()).toEqual(dates);
  });

  it('an unknown country, an unknown region or a missing year is invalid input', () => {
    expect(engineError(() => previewHolidays({ country: 'XX', year: 2024 })).kind).toBe('invalid-input');
    expect(engineError(() => previewHolidays({ country: 'DE', region: 'ZZ', year: 2024 })).kind).toBe('invalid-input');
    expect(engineError(() => previewHolidays({ country: 'DE' })).kind).toBe('invalid-input');
  });
});

describe('holiday import merge', () => {
  it('importing twice creates no duplicates (same date and name)', () => {
    const imported = previewHolidays({ country: 'DE', year: 2024 });
    const first = mergeImportedHolidays([], imported);
    expect(first).toEqual(imported);
    const stored = first.map((h) => ({ ...importedToHolidayInput(h) }));
    expect(mergeImportedHolidays(stored, previewHolidays({ country: 'DE', year: 2024 }))).toEqual([]);
  });

  it('names compare trimmed and case-insensitively; a different name on the same date is kept', () => {
    const existing = [{ date: '2024-10-03', name: ' national holiday ' }];
    const got = mergeImportedHolidays(existing, [
      { date: '2024-10-03', name: 'National Holiday' },
      { date: '2024-10-03', name: 'Company Day' },
    ]);
    expect(got).toEqual([{ date: '2024-10-03', name: 'Company Day' }]);
  });

  it('an existing recurring holiday covers the same month/day in any year', () => {
    const existing = [{ date: '2019-12-25', name: 'Christmas Day', recurring: true }];
    expect(mergeImportedHolidays(existing, [{ date: '2024-12-25', name: 'Christmas Day' }])).toEqual([]);
    expect(mergeImportedHolidays([{ ...existing[0]!, recurring: false }], [{ date: '2024-12-25', name: 'Christmas Day' }])).toHaveLength(1);
  });

  it('duplicates inside one import are dropped', () => {
    const h = { date: '2024-05-01', name: 'Labour Day' };
    expect(mergeImportedHolidays([], [h, { ...h }])).toEqual([h]);
  });

  it('an imported narrowed day narrows the hours in the engine (DE Christmas Eve 2024: open until 14:00)', () => {
    const eve = previewHolidays({ country: 'DE', year: 2024, types: ['bank'] }).find((h) => h.date === '2024-12-24');
    expect(eve).toBeDefined();
    const cal = calendar([location('BER', 'Europe/Berlin', hours(WEEKDAYS, '09:00', '17:00'), [importedToHolidayInput(eve!)])]);
    const r = calculateSla(cal, { receivedDateTime: '2024-12-24T09:00', receivedTimezone: 'Europe/Berlin', sla: { businessMinutes: 300 } });
    expect(r.dueDateTimeLocal).toBe('2024-12-24T14:00:00.000+01:00');
    const r2 = calculateSla(cal, { receivedDateTime: '2024-12-24T09:00', receivedTimezone: 'Europe/Berlin', sla: { businessMinutes: 301 } });
    expect(r2.dueDateTimeLocal).toBe('2024-12-25T09:01:00.000+01:00');
  });
});
