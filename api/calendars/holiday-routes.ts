import { createRoute, z } from '@hono/zod-openapi';
import {
  addHoliday,
  importHolidays,
  listHolidayCountries,
  listHolidays,
  previewHolidayImport,
  removeHoliday,
} from '../../services/calendars/holidays';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { withFieldPaths } from './field-paths';
import { guarded } from './guards';
import { locationAddress } from './location-address';
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
      const rows = await listHolidays(c.get('deps').db, {
        ...locationAddress(c, c.req.valid('param')),
        year: c.req.valid('query').year,
      });
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
      const row = await addHoliday(c.get('deps').db, { ...locationAddress(c, c.req.valid('param')), holiday: c.req.valid('json') });
      return c.json(holidayView(row), 201);
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
      const q = c.req.valid('query');
      const result = await importHolidays(c.get('deps'), { ...locationAddress(c, c.req.valid('param')), year: q.year, types: q.types });
      return c.json(
        {
          year: result.year,
          countryCode: result.countryCode,
          region: result.region,
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
      const q = c.req.valid('query');
      const entries = await withFieldPaths('query', () =>
        previewHolidayImport(c.get('deps'), {
          ...locationAddress(c, c.req.valid('param')),
          countryCode: q.countryCode,
          region: q.region,
          year: q.year,
          types: q.types,
        }),
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
      const countries = await listHolidayCountries(c.get('deps').db, locationAddress(c, c.req.valid('param')));
      return c.json(countries, 200);
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
      const path = c.req.valid('param');
      await removeHoliday(c.get('deps').db, { ...locationAddress(c, path), id: path.id });
      return c.body(null, 204);
    },
  );

  return app;
}
