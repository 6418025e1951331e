import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteHoliday, insertHolidays, listHolidays } from '../../db/queries/calendar-rules';
import { lockLocation } from '../../db/queries/calendars';
import {
  CalendarEngineError,
  importedToHolidayInput,
  listAvailableCountries,
  mergeImportedHolidays,
  previewHolidays,
} from '../../domain/calendar/index';
import { AppError, badRequest, notFound } from '../../domain/errors';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { guarded, requireLocation, withFieldPaths } from './lookup';
import {
  AvailableCountry,
  Holiday,
  HolidayCreateBody,
  HolidayImportQuery,
  HolidayImportResult,
  HolidayListQuery,
  HolidayPreviewQuery,
  LocationPath,
  LocationRecordPath,
  PreviewHoliday,
} from './schemas';
import { holidayView } from './views';

const tags = ['Calendars: holidays'];
const reader = guarded('CALENDAR', 'read');
const writer = guarded('CALENDAR', 'write');
const authErrors = [400, 401, 403, 404] as const;

const currentYear = (c: Context<AppEnv>) => (c.get('deps').clock?.() ?? new Date()).getUTCFullYear();

export function holidayRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays',
      tags,
      summary: "A location's holidays by date (optionally one year's, plus the recurring ones)",
      middleware: reader,
      request: { params: LocationPath, query: HolidayListQuery },
      responses: { 200: jsonContent(z.array(Holiday)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      const rows = await listHolidays(c.get('deps').db, c.get('caller').tenantId, location.id, c.req.valid('query').year);
      return c.json(rows.map(holidayView), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays',
      tags,
      summary: 'Add a holiday: closed all day, or closed=false narrowed to openFrom..openUntil',
      description: 'A recurring holiday repeats on its month and day every year (29 February only in leap years).',
      middleware: writer,
      request: { params: LocationPath, body: jsonBody(HolidayCreateBody) },
      responses: { 201: jsonContent(Holiday, 'Created'), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      const b = c.req.valid('json');
      const [row] = await insertHolidays(c.get('deps').db, c.get('caller').tenantId, location.id, [
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
      ]);
      return c.json(holidayView(row!), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays/auto-import',
      tags,
      summary: "Import a year's holidays of the location's country and region (offline date-holidays data)",
      description:
        'Public holidays unless `types` says otherwise. Entries already present (same date and name, case-insensitive, ' +
        'or a recurring holiday with that name on that month and day) are skipped, so importing twice adds nothing. ' +
        'Partial-day holidays become narrowed days; multi-day holidays give one entry per date. ' +
        '422 `location-country-missing` when the location has no country.',
      middleware: writer,
      request: { params: LocationPath, query: HolidayImportQuery },
      responses: { 200: jsonContent(HolidayImportResult), ...problemResponses(...authErrors, 422) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const q = c.req.valid('query');
      const location = await requireLocation(c, code, loc);
      if (!location.country) {
        throw new AppError('location-country-missing', `Location ${loc} has no country to import holidays for`);
      }
      const year = q.year ?? currentYear(c);
      let imported;
      try {
        imported = previewHolidays({ country: location.country, region: location.region, year, types: q.types });
      } catch (err) {
        if (err instanceof CalendarEngineError && err.kind === 'invalid-input') {
          throw new AppError('holiday-data-unavailable', `No holiday data for the location: ${err.detail}`);
        }
        throw err;
      }
      const tenantId = c.get('caller').tenantId;
      const result = await c.get('deps').db.transaction(async (tx) => {
        // Imports of one location are serialised, so two at once cannot both add an entry.
        if (!(await lockLocation(tx, tenantId, location.id))) throw notFound(`Location ${loc}`, 'location-not-found');
        // Imported entries all fall in `year`: only that year's and the recurring holidays can match.
        const existing = await listHolidays(tx, tenantId, location.id, year);
        const fresh = mergeImportedHolidays(existing, imported);
        const created = await insertHolidays(tx, tenantId, location.id, fresh.map(importedToHolidayInput));
        return { created, skipped: imported.length - fresh.length };
      });
      return c.json(
        {
          year,
          countryCode: location.country,
          region: location.region,
          created: result.created.map(holidayView),
          skipped: result.skipped,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays/preview',
      tags,
      summary: 'What an import would bring, substitute days flagged (nothing is stored)',
      description: "countryCode and region default to the location's.",
      middleware: reader,
      request: { params: LocationPath, query: HolidayPreviewQuery },
      responses: { 200: jsonContent(z.array(PreviewHoliday)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      const q = c.req.valid('query');
      const location = await requireLocation(c, code, loc);
      const country = (q.countryCode ?? location.country)?.toUpperCase();
      if (!country) {
        throw badRequest('validation-failed', 'query.countryCode is required: the location has no country', {
          errors: [{ path: 'query.countryCode', message: 'required when the location has no country' }],
        });
      }
      const region = q.region ?? (country === location.country ? location.region : null);
      const entries = await withFieldPaths('query', () =>
        previewHolidays({ country, region, year: q.year ?? currentYear(c), types: q.types }),
      );
      return c.json(
        entries.map((e) => ({ ...e, openFrom: e.openFrom ?? null, openUntil: e.openUntil ?? null })),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays/available-countries',
      tags,
      summary: 'Countries with holiday data and their regions (the region of a location)',
      middleware: reader,
      request: { params: LocationPath },
      responses: { 200: jsonContent(z.array(AvailableCountry)), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc } = c.req.valid('param');
      await requireLocation(c, code, loc);
      return c.json(listAvailableCountries(), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/business-calendars/{code}/locations/{loc}/holidays/{id}',
      tags,
      summary: 'Delete a holiday',
      middleware: writer,
      request: { params: LocationRecordPath },
      responses: { 204: noContent, ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const { code, loc, id } = c.req.valid('param');
      const location = await requireLocation(c, code, loc);
      if (!(await deleteHoliday(c.get('deps').db, c.get('caller').tenantId, location.id, id))) {
        throw notFound('Holiday', 'holiday-not-found');
      }
      return c.body(null, 204);
    },
  );

  return app;
}
