import { createRoute, z } from '@hono/zod-openapi';
import { deleteHours, insertHours, listHours } from '../../db/queries/calendar-rules';
import { deleteLocation, insertLocation, listLocations, updateLocation, type LocationValues } from '../../db/queries/calendars';
import { notFound } from '../../domain/errors';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { guarded, requireCalendar, requireLocation, uniqueOr409 } from './lookup';
import {
  BusinessHours,
  CalendarLocation,
  CalendarPath,
  HoursCreateBody,
  LocationCreateBody,
  LocationPath,
  LocationRecordPath,
  LocationUpdateBody,
} from './schemas';
import { hoursView, locationView } from './views';

const tags = ['Calendars: locations and business hours'];
const reader = guarded('CALENDAR', 'read');
const writer = guarded('CALENDAR', 'write');
const authErrors = [400, 401, 403, 404] as const;

const locationValues = (b: z.output<typeof LocationCreateBody>): LocationValues => ({
  locationCode: b.locationCode,
  name: b.name,
  timezone: b.timezone,
  country: b.country ? b.country.toUpperCase() : null,
  region: b.region ?? null,
  city: b.city ?? null,
  enabled: b.enabled,
  sortOrder: b.sortOrder,
});

export function locationRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations',
      tags,
      summary: "A calendar's locations in sortOrder",
      middleware: reader,
      request: { params: CalendarPath },
      responses: { 200: jsonContent(z.array(CalendarLocation)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const calendar = await requireCalendar(c, c.req.valid('param').code);
      const rows = await listLocations(c.get('deps').db, c.get('caller').tenantId, calendar.id);
      return c.json(rows.map(locationView), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars/{code}/locations',
      tags,
      summary: 'Add a location (IANA timezone); 409 when the calendar has the locationCode already',
      middleware: writer,
      request: { params: CalendarPath, body: jsonBody(LocationCreateBody) },
      responses: { 201: jsonContent(CalendarLocation, 'Created'), ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      const calendar = await requireCalendar(c, c.req.valid('param').code);
      const body = c.req.valid('json');
      const row = await uniqueOr409(
        () => insertLocation(c.get('deps').db, c.get('caller').tenantId, calendar.id, locationValues(body)),
        'location-exists',
        `Location ${body.locationCode} exists already in this calendar`,
      );
      return c.json(locationView(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations/{loc}',
      tags,
      summary: 'One location',
      middleware: reader,
      request: { params: LocationPath },
      responses: { 200: jsonContent(CalendarLocation), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      return c.json(locationView(await requireLocation(c, code, loc)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/business-calendars/{code}/locations/{loc}',
      tags,
      summary: 'Replace a location (a different locationCode renames it; 409 when taken)',
      middleware: writer,
      request: { params: LocationPath, body: jsonBody(LocationUpdateBody) },
      responses: { 200: jsonContent(CalendarLocation), ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const body = c.req.valid('json');
      const location = await requireLocation(c, code, loc);
      const values = locationValues({ ...body, locationCode: body.locationCode ?? loc });
      const row = await uniqueOr409(
        () => updateLocation(c.get('deps').db, c.get('caller').tenantId, location.id, values),
        'location-exists',
        `Location ${values.locationCode} exists already in this calendar`,
      );
      if (!row) throw notFound(`Location ${loc}`, 'location-not-found');
      return c.json(locationView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/business-calendars/{code}/locations/{loc}',
      tags,
      summary: 'Delete a location with its hours and holidays',
      middleware: writer,
      request: { params: LocationPath },
      responses: { 204: noContent, ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      if (!(await deleteLocation(c.get('deps').db, c.get('caller').tenantId, location.id))) {
        throw notFound(`Location ${loc}`, 'location-not-found');
      }
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations/{loc}/business-hours',
      tags,
      summary: "A location's weekly windows, by dayOfWeek and startTime",
      middleware: reader,
      request: { params: LocationPath },
      responses: { 200: jsonContent(z.array(BusinessHours)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      const rows = await listHours(c.get('deps').db, c.get('caller').tenantId, location.id);
      return c.json(rows.map(hoursView), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars/{code}/locations/{loc}/business-hours',
      tags,
      summary: 'Add a weekly window (wall-clock HH:mm; an endTime not after startTime runs past midnight)',
      description:
        'partial, partialReason and capacityPercent are descriptive and do not change the minutes counted. ' +
        'effectiveFrom/effectiveUntil are inclusive local dates.',
      middleware: writer,
      request: { params: LocationPath, body: jsonBody(HoursCreateBody) },
      responses: { 201: jsonContent(BusinessHours, 'Created'), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      const b = c.req.valid('json');
      const row = await insertHours(c.get('deps').db, c.get('caller').tenantId, location.id, {
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
      });
      return c.json(hoursView(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/business-calendars/{code}/locations/{loc}/business-hours/{id}',
      tags,
      summary: 'Delete a weekly window',
      middleware: writer,
      request: { params: LocationRecordPath },
      responses: { 204: noContent, ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc, id } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      if (!(await deleteHours(c.get('deps').db, c.get('caller').tenantId, location.id, id))) {
        throw notFound('Business hours', 'business-hours-not-found');
      }
      return c.body(null, 204);
    },
  );

  return app;
}
