import { createRoute, z } from '@hono/zod-openapi';
import { addBusinessHours, listBusinessHours, removeBusinessHours } from '../../services/calendars/business-hours';
import { createLocation, deleteLocation, getLocation, listLocations, updateLocation } from '../../services/calendars/locations';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { guarded } from './guards';
import { locationAddress } from './location-address';
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
      const rows = await listLocations(c.get('deps').db, { tenantId: c.get('caller').tenantId, calendarCode: c.req.valid('param').code });
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
      const row = await createLocation(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        calendarCode: c.req.valid('param').code,
        location: c.req.valid('json'),
      });
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
      const location = await getLocation(c.get('deps').db, locationAddress(c, c.req.valid('param')));
      return c.json(locationView(location), 200);
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
      const row = await updateLocation(c.get('deps').db, { ...locationAddress(c, c.req.valid('param')), location: c.req.valid('json') });
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
      await deleteLocation(c.get('deps').db, locationAddress(c, c.req.valid('param')));
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
      const rows = await listBusinessHours(c.get('deps').db, locationAddress(c, c.req.valid('param')));
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
      const row = await addBusinessHours(c.get('deps').db, { ...locationAddress(c, c.req.valid('param')), hours: c.req.valid('json') });
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
      const path = c.req.valid('param');
      await removeBusinessHours(c.get('deps').db, { ...locationAddress(c, path), id: path.id });
      return c.body(null, 204);
    },
  );

  return app;
}
