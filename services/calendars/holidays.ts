import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { deleteHoliday, insertHolidays, listHolidayRows, type HolidayRow } from '../../db/queries/calendar-rules';
import { lockLocation } from '../../db/queries/calendars';
import {
  CalendarEngineError,
  importedToHolidayInput,
  listAvailableCountries,
  mergeImportedHolidays,
  previewHolidays,
  type HolidayImportType,
  type holidayInputSchema,
} from '../../domain/calendar/index';
import { AppError, badRequest, notFound } from '../../domain/errors';
import { getLocation, type LocationAddress } from './locations';

/** A holiday as a caller gives it. */
export type HolidayInput = z.output<typeof holidayInputSchema>;

/** The clock decides the default year of an import or a preview. */
export interface HolidayDeps {
  db: Db;
  clock?: (() => Date) | undefined;
}

const currentYear = (deps: HolidayDeps) => (deps.clock?.() ?? new Date()).getUTCFullYear();

/** A location's holidays by date; with `year`, that year's dated holidays and every recurring one. */
export async function listHolidays(db: DbOrTx, { year, ...address }: LocationAddress & { year?: number | undefined }) {
  const location = await getLocation(db, address);
  return listHolidayRows(db, { tenantId: address.tenantId, locationId: location.id, year });
}

export async function addHoliday(db: DbOrTx, { holiday: b, ...address }: LocationAddress & { holiday: HolidayInput }): Promise<HolidayRow> {
  const location = await getLocation(db, address);
  const [row] = await insertHolidays(db, {
    tenantId: address.tenantId,
    locationId: location.id,
    values: [
      {
        date: b.date,
        name: b.name,
        type: b.type ?? null,
        openFrom: b.openFrom ?? null,
        openUntil: b.openUntil ?? null,
        closed: b.closed,
        description: b.description ?? null,
        recurring: b.recurring,
      },
    ],
  });
  return row!;
}

export interface HolidayImport {
  year: number;
  countryCode: string;
  region: string | null;
  created: HolidayRow[];
  skipped: number;
}

/**
 * Imports a year's holidays of the location's country and region; entries already present are
 * skipped. 422 `location-country-missing` when the location has no country,
 * `holiday-data-unavailable` when the offline data has none for it.
 */
export async function importHolidays(
  deps: HolidayDeps,
  {
    year: requestedYear,
    types,
    ...address
  }: LocationAddress & { year?: number | undefined; types?: readonly HolidayImportType[] | undefined },
): Promise<HolidayImport> {
  const { tenantId, locationCode } = address;
  const location = await getLocation(deps.db, address);
  if (!location.country) {
    throw new AppError('location-country-missing', `Location ${locationCode} has no country to import holidays for`);
  }
  const year = requestedYear ?? currentYear(deps);
  let imported;
  try {
    imported = previewHolidays({ country: location.country, region: location.region, year, types });
  } catch (err) {
    if (err instanceof CalendarEngineError && err.kind === 'invalid-input') {
      throw new AppError('holiday-data-unavailable', `No holiday data for the location: ${err.detail}`);
    }
    throw err;
  }
  const result = await deps.db.transaction(async (tx) => {
    // Imports of one location are serialised, so two at once cannot both add an entry.
    if (!(await lockLocation(tx, { tenantId, id: location.id }))) throw notFound(`Location ${locationCode}`, 'location-not-found');
    // Imported entries all fall in `year`: only that year's and the recurring holidays can match.
    const existing = await listHolidayRows(tx, { tenantId, locationId: location.id, year });
    const fresh = mergeImportedHolidays(existing, imported);
    const created = await insertHolidays(tx, { tenantId, locationId: location.id, values: fresh.map(importedToHolidayInput) });
    return { created, skipped: imported.length - fresh.length };
  });
  return { year, countryCode: location.country, region: location.region, created: result.created, skipped: result.skipped };
}

/**
 * What an import would bring (nothing is stored). countryCode and region default to the
 * location's; the region only when the country is the location's.
 */
export async function previewHolidayImport(
  deps: HolidayDeps,
  {
    countryCode,
    region,
    year,
    types,
    ...address
  }: LocationAddress & {
    countryCode?: string | undefined;
    region?: string | undefined;
    year?: number | undefined;
    types?: readonly HolidayImportType[] | undefined;
  },
) {
  const location = await getLocation(deps.db, address);
  const country = (countryCode ?? location.country)?.toUpperCase();
  if (!country) {
    throw badRequest('validation-failed', 'query.countryCode is required: the location has no country', {
      errors: [{ path: 'query.countryCode', message: 'required when the location has no country' }],
    });
  }
  const chosenRegion = region ?? (country === location.country ? location.region : null);
  return previewHolidays({ country, region: chosenRegion, year: year ?? currentYear(deps), types });
}

/** Countries with holiday data and their regions, for a location that exists. */
export async function listHolidayCountries(db: DbOrTx, address: LocationAddress) {
  await getLocation(db, address);
  return listAvailableCountries();
}

/** 404 `holiday-not-found` when the location has no such holiday. */
export async function removeHoliday(db: DbOrTx, { id, ...address }: LocationAddress & { id: string }) {
  const location = await getLocation(db, address);
  if (!(await deleteHoliday(db, { tenantId: address.tenantId, locationId: location.id, id }))) {
    throw notFound('Holiday', 'holiday-not-found');
  }
}
