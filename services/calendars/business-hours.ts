import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { deleteHours, insertHours, listHours, type HoursRow } from '../../db/queries/calendar-rules';
import type { businessHoursInputSchema } from '../../domain/calendar/index';
import { notFound } from '../../domain/errors';
import { getLocation, type LocationAddress } from './locations';

/** A weekly window as a caller gives it. */
export type BusinessHoursInput = z.output<typeof businessHoursInputSchema>;

/** A location's weekly windows, by dayOfWeek and startTime. */
export async function listBusinessHours(db: DbOrTx, address: LocationAddress) {
  const location = await getLocation(db, address);
  return listHours(db, { tenantId: address.tenantId, locationId: location.id });
}

export async function addBusinessHours(
  db: DbOrTx,
  { hours: b, ...address }: LocationAddress & { hours: BusinessHoursInput },
): Promise<HoursRow> {
  const location = await getLocation(db, address);
  return insertHours(db, {
    tenantId: address.tenantId,
    locationId: location.id,
    values: {
      dayOfWeek: b.dayOfWeek,
      startTime: b.startTime,
      endTime: b.endTime,
      label: b.label ?? null,
      partial: b.partial,
      capacityPercent: b.capacityPercent ?? null,
      partialReason: b.partialReason ?? null,
      active: b.active,
      effectiveFrom: b.effectiveFrom ?? null,
      effectiveUntil: b.effectiveUntil ?? null,
    },
  });
}

/** 404 `business-hours-not-found` when the location has no such window. */
export async function removeBusinessHours(db: DbOrTx, { id, ...address }: LocationAddress & { id: string }) {
  const location = await getLocation(db, address);
  if (!(await deleteHours(db, { tenantId: address.tenantId, locationId: location.id, id }))) {
    throw notFound('Business hours', 'business-hours-not-found');
  }
}
