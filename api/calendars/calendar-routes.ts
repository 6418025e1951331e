import { createRoute, z } from '@hono/zod-openapi';
import { parseInstant } from '../../domain/calendar/index';
import { badRequest } from '../../domain/errors';
import { checkCalendarOpen, readAvailability } from '../../services/calendars/availability';
import { createCalendar, deleteCalendar, getCalendar, listCalendars, updateCalendar } from '../../services/calendars/calendars';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { withFieldPaths } from './field-paths';
import { guarded } from './guards';
import { isOpenCacheHeaders } from './is-open-cache';
import {
  AvailabilityQuery,
  AvailabilityWindow,
  BusinessCalendar,
  CalendarCreateAtCodeBody,
  CalendarCreateBody,
  CalendarPath,
  CalendarUpdateBody,
  IsOpen,
  IsOpenQuery,
} from './schemas';
import { calendarView } from './views';

const tags = ['Calendars'];
const reader = guarded('CALENDAR', 'read');
const writer = guarded('CALENDAR', 'write');
const authErrors = [400, 401, 403, 404] as const;

export function calendarCrudRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars',
      tags,
      summary: "The tenant's calendars, by calendarCode",
      middleware: reader,
      responses: { 200: jsonContent(z.array(BusinessCalendar)), ...problemResponses(...authErrors) },
    }),
    async (c) => c.json((await listCalendars(c.get('deps').db, { tenantId: c.get('caller').tenantId })).map(calendarView), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}',
      tags,
      summary: 'One calendar',
      middleware: reader,
      request: { params: CalendarPath },
      responses: { 200: jsonContent(BusinessCalendar), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const calendar = await getCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, calendarCode: c.req.valid('param').code });
      return c.json(calendarView(calendar), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars/{code}',
      tags,
      summary: 'Create a calendar under this code; 409 when the tenant has the code already',
      description: 'The body may repeat calendarCode; it must then equal the path code.',
      middleware: writer,
      request: {
        params: CalendarPath,
        body: jsonBody(CalendarCreateAtCodeBody),
      },
      responses: { 201: jsonContent(BusinessCalendar, 'Created'), ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      const { code } = c.req.valid('param');
      const body = c.req.valid('json');
      if (body.calendarCode !== undefined && body.calendarCode !== code) {
        throw badRequest('validation-failed', 'json.calendarCode differs from the path code', {
          errors: [{ path: 'json.calendarCode', message: 'must equal the path code' }],
        });
      }
      const row = await createCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, calendar: { ...body, calendarCode: code } });
      return c.json(calendarView(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars',
      tags,
      summary: 'Create a calendar (code in the body); 409 when the tenant has the code already',
      middleware: writer,
      request: { body: jsonBody(CalendarCreateBody) },
      responses: { 201: jsonContent(BusinessCalendar, 'Created'), ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      const row = await createCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, calendar: c.req.valid('json') });
      return c.json(calendarView(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/business-calendars/{code}',
      tags,
      summary: 'Replace a calendar (a different calendarCode renames it; 409 when taken)',
      middleware: writer,
      request: { params: CalendarPath, body: jsonBody(CalendarUpdateBody) },
      responses: { 200: jsonContent(BusinessCalendar), ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      const row = await updateCalendar(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        calendarCode: c.req.valid('param').code,
        calendar: c.req.valid('json'),
      });
      return c.json(calendarView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/business-calendars/{code}',
      tags,
      summary: 'Delete a calendar with its locations, hours and holidays; 409 while a process association uses it',
      middleware: writer,
      request: { params: CalendarPath },
      responses: { 204: noContent, ...problemResponses(...authErrors, 409) },
    }),
    async (c) => {
      await deleteCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, calendarCode: c.req.valid('param').code });
      return c.body(null, 204);
    },
  );

  return app;
}

export function calendarReadRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/availability',
      tags,
      summary: 'Open windows of the union of enabled locations in [from, to), split where the open set changes',
      description:
        'from/to are instants with an offset, or local date-times (or dates) read in `timezone`. At most 366 days ' +
        '(400 `calendar-span-too-large`). An inactive calendar has no windows.',
      middleware: reader,
      request: { params: CalendarPath, query: AvailabilityQuery },
      responses: { 200: jsonContent(z.array(AvailabilityWindow)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const deps = c.get('deps');
      const windows = await withFieldPaths('query', () =>
        readAvailability(
          deps.db,
          {
            tenantId: c.get('caller').tenantId,
            calendarCode: c.req.valid('param').code,
            from: q.from,
            to: q.to,
            timezone: q.timezone,
          },
          deps.compiledCalendars,
        ),
      );
      return c.json(windows, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/is-open',
      tags,
      summary: 'Open now (or at `at`), which locations, and when that next changes; cacheable until then',
      description:
        'Answers carry `Cache-Control: private, max-age=N` and `Expires`, N being the whole seconds until nextChangeAt, ' +
        'capped by the setting `calendar.is-open-max-age-seconds`; with `at` the answer is `no-cache`. ' +
        'An inactive calendar is closed with nextChangeAt null.',
      middleware: reader,
      request: { params: CalendarPath, query: IsOpenQuery },
      responses: {
        200: {
          ...jsonContent(IsOpen),
          headers: z.object({
            'Cache-Control': z.string().openapi({ example: 'private, max-age=840' }),
            Expires: z.string().optional().openapi({ example: 'Mon, 07 Apr 2025 08:00:00 GMT' }),
          }),
        },
        ...problemResponses(...authErrors),
      },
    }),
    async (c) => {
      const { code } = c.req.valid('param');
      const { at } = c.req.valid('query');
      const deps = c.get('deps');
      const now = (deps.clock?.() ?? new Date()).getTime();
      const instant = at === undefined ? now : parseInstant(at, undefined, 'at').instant;
      const result = await withFieldPaths('query', () =>
        checkCalendarOpen(deps.db, { tenantId: c.get('caller').tenantId, calendarCode: code, instant }, deps.compiledCalendars),
      );
      const headers = isOpenCacheHeaders(now, result.nextChangeAt, deps.settings['calendar.is-open-max-age-seconds'], at !== undefined);
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return c.json(result, 200);
    },
  );

  return app;
}
