import { createRoute, z } from '@hono/zod-openapi';
import { holidaysFromInstant, loadCalendarSnapshot } from '../../db/queries/calendar-snapshot';
import { isForeignKeyViolation } from '../../db/errors';
import { deleteCalendar, insertCalendar, listCalendars, updateCalendar } from '../../db/queries/calendars';
import { computeAvailability, isCalendarOpen, parseInstant } from '../../domain/calendar/index';
import type { Context } from 'hono';
import { badRequest, conflict, notFound } from '../../domain/errors';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { isOpenCacheHeaders } from './is-open-cache';
import { guarded, requireCalendar, uniqueOr409, withFieldPaths } from './lookup';
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

async function createCalendar(c: Context<AppEnv>, body: z.output<typeof CalendarCreateBody>) {
  const row = await uniqueOr409(
    () => insertCalendar(c.get('deps').db, c.get('caller').tenantId, { ...body, description: body.description ?? null }),
    'calendar-exists',
    `Calendar ${body.calendarCode} exists already`,
  );
  return calendarView(row);
}

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
    async (c) => c.json((await listCalendars(c.get('deps').db, c.get('caller').tenantId)).map(calendarView), 200),
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
    async (c) => c.json(calendarView(await requireCalendar(c, c.req.valid('param').code)), 200),
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
      return c.json(await createCalendar(c, { ...body, calendarCode: code }), 201);
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
    async (c) => c.json(await createCalendar(c, c.req.valid('json')), 201),
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
      const { code } = c.req.valid('param');
      const body = c.req.valid('json');
      const current = await requireCalendar(c, code);
      const calendarCode = body.calendarCode ?? code;
      const row = await uniqueOr409(
        () =>
          updateCalendar(c.get('deps').db, c.get('caller').tenantId, current.id, {
            calendarCode,
            name: body.name,
            description: body.description ?? null,
            active: body.active,
            businessDayMinutes: body.businessDayMinutes ?? current.businessDayMinutes,
          }),
        'calendar-exists',
        `Calendar ${calendarCode} exists already`,
      );
      if (!row) throw notFound(`Calendar ${code}`, 'calendar-not-found');
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
      const { code } = c.req.valid('param');
      try {
        if (!(await deleteCalendar(c.get('deps').db, c.get('caller').tenantId, code))) {
          throw notFound(`Calendar ${code}`, 'calendar-not-found');
        }
      } catch (err) {
        if (isForeignKeyViolation(err)) {
          throw conflict('calendar-in-use', `Calendar ${code} is used by a process association; delete that first`);
        }
        throw err;
      }
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
      const { code } = c.req.valid('param');
      const q = c.req.valid('query');
      const from = await withFieldPaths('query', () => parseInstant(q.from, q.timezone, 'from').instant);
      const snapshot = await loadCalendarSnapshot(c.get('deps').db, c.get('caller').tenantId, { calendarCode: code }, holidaysFromInstant(from));
      if (!snapshot) throw notFound(`Calendar ${code}`, 'calendar-not-found');
      const windows = await withFieldPaths('query', () =>
        computeAvailability(snapshot, { from: q.from, to: q.to, ...(q.timezone ? { timezone: q.timezone } : {}) }),
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
      const snapshot = await loadCalendarSnapshot(deps.db, c.get('caller').tenantId, { calendarCode: code }, holidaysFromInstant(instant));
      if (!snapshot) throw notFound(`Calendar ${code}`, 'calendar-not-found');
      const result = await withFieldPaths('query', () => isCalendarOpen(snapshot, instant));
      const headers = isOpenCacheHeaders(now, result.nextChangeAt, deps.settings['calendar.is-open-max-age-seconds'], at !== undefined);
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return c.json(result, 200);
    },
  );

  return app;
}
