import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import {
  deleteLocationRow,
  findLocation,
  insertLocation,
  listLocationRows,
  updateLocationRow,
  type LocationRow,
  type LocationValues,
} from '../../db/queries/calendars';
import type { calendarLocationInputSchema } from '../../domain/calendar/index';
import { notFound } from '../../domain/errors';
import { getCalendar } from './calendars';
import { uniqueOr409 } from './unique-conflict';

/** A location as a caller gives it (the create body). */
export type LocationInput = z.output<typeof calendarLocationInputSchema>;
/** A replacement: a different locationCode renames the location. */
export type LocationReplacement = Omit<LocationInput, 'locationCode'> & { locationCode?: string | undefined };

/** Which location: its calendar's code and its own, within the tenant. */
export interface LocationAddress {
  tenantId: string;
  calendarCode: string;
  locationCode: string;
}

const locationValues = (b: LocationInput): LocationValues => ({
  locationCode: b.locationCode,
  name: b.name,
  timezone: b.timezone,
  country: b.country ? b.country.toUpperCase() : null,
  region: b.region ?? null,
  city: b.city ?? null,
  enabled: b.enabled,
  sortOrder: b.sortOrder,
});

/** One location; 404 `calendar-not-found` or `location-not-found`, whichever is missing. */
export async function getLocation(db: DbOrTx, { tenantId, calendarCode, locationCode }: LocationAddress): Promise<LocationRow> {
  const found = await findLocation(db, { tenantId, calendarCode, locationCode });
  if (!found) throw notFound(`Calendar ${calendarCode}`, 'calendar-not-found');
  if (!found.location) throw notFound(`Location ${locationCode}`, 'location-not-found');
  return found.location;
}

/** A calendar's locations in sortOrder. */
export async function listLocations(db: DbOrTx, { tenantId, calendarCode }: { tenantId: string; calendarCode: string }) {
  const calendar = await getCalendar(db, { tenantId, calendarCode });
  return listLocationRows(db, { tenantId, calendarId: calendar.id });
}

/** 409 `location-exists` when the calendar has the locationCode already. */
export async function createLocation(
  db: DbOrTx,
  { tenantId, calendarCode, location }: { tenantId: string; calendarCode: string; location: LocationInput },
) {
  const calendar = await getCalendar(db, { tenantId, calendarCode });
  return uniqueOr409(
    () => insertLocation(db, { tenantId, calendarId: calendar.id, values: locationValues(location) }),
    'location-exists',
    `Location ${location.locationCode} exists already in this calendar`,
  );
}

/** Replaces a location; 409 `location-exists` when a rename hits a taken code. */
export async function updateLocation(
  db: DbOrTx,
  { location, ...address }: LocationAddress & { location: LocationReplacement },
): Promise<LocationRow> {
  const current = await getLocation(db, address);
  const values = locationValues({ ...location, locationCode: location.locationCode ?? address.locationCode });
  const row = await uniqueOr409(
    () => updateLocationRow(db, { tenantId: address.tenantId, id: current.id, values }),
    'location-exists',
    `Location ${values.locationCode} exists already in this calendar`,
  );
  if (!row) throw notFound(`Location ${address.locationCode}`, 'location-not-found');
  return row;
}

/** Deletes a location with its hours and holidays. */
export async function deleteLocation(db: DbOrTx, address: LocationAddress) {
  const current = await getLocation(db, address);
  if (!(await deleteLocationRow(db, { tenantId: address.tenantId, id: current.id }))) {
    throw notFound(`Location ${address.locationCode}`, 'location-not-found');
  }
}
