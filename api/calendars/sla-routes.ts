import { createRoute, z } from '@hono/zod-openapi';
import {
  createProcessCalendar,
  deleteProcessCalendar,
  getProcessCalendar,
  listProcessCalendars,
  updateProcessCalendar,
} from '../../services/calendars/process-calendars';
import { calculateTenantSla } from '../../services/calendars/sla';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses } from '../openapi';
import { withFieldPaths } from './field-paths';
import { guarded } from './guards';
import {
  AssociationCreateBody,
  AssociationUpdateBody,
  ProcessCalendarAssociation,
  SlaCalculateBody,
  SlaResult,
  processKeyParam,
} from './schemas';
import { associationView } from './views';

const tags = ['SLA'];
const reader = guarded('SLA', 'read');
const writer = guarded('SLA', 'write');
const authErrors = [400, 401, 403, 404] as const;
const KeyPath = z.object({ key: processKeyParam });

export function slaRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/process-calendars',
      tags,
      summary: 'Process associations (processDefinitionKey → calendar and SLA budget)',
      middleware: reader,
      responses: { 200: jsonContent(z.array(ProcessCalendarAssociation)), ...problemResponses(...authErrors) },
    }),
    async (c) => c.json((await listProcessCalendars(c.get('deps').db, { tenantId: c.get('caller').tenantId })).map(associationView), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/process-calendars',
      tags,
      summary: 'Associate a process definition with a calendar and budget; 409 when the key has one',
      description: '422 `unknown-calendar` when calendarCode names no calendar of the tenant.',
      middleware: writer,
      request: { body: jsonBody(AssociationCreateBody) },
      responses: { 201: jsonContent(ProcessCalendarAssociation, 'Created'), ...problemResponses(...authErrors, 409, 422) },
    }),
    async (c) => {
      const row = await createProcessCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, association: c.req.valid('json') });
      return c.json(associationView(row), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/process-calendars/{key}',
      tags,
      summary: 'One association',
      middleware: reader,
      request: { params: KeyPath },
      responses: { 200: jsonContent(ProcessCalendarAssociation), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const row = await getProcessCalendar(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        processDefinitionKey: c.req.valid('param').key,
      });
      return c.json(associationView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/process-calendars/{key}',
      tags,
      summary: 'Replace an association (a different processDefinitionKey renames it; 409 when taken)',
      middleware: writer,
      request: { params: KeyPath, body: jsonBody(AssociationUpdateBody) },
      responses: { 200: jsonContent(ProcessCalendarAssociation), ...problemResponses(...authErrors, 409, 422) },
    }),
    async (c) => {
      const row = await updateProcessCalendar(c.get('deps').db, {
        tenantId: c.get('caller').tenantId,
        processDefinitionKey: c.req.valid('param').key,
        association: c.req.valid('json'),
      });
      return c.json(associationView(row), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/process-calendars/{key}',
      tags,
      summary: 'Remove an association',
      middleware: writer,
      request: { params: KeyPath },
      responses: { 204: noContent, ...problemResponses(...authErrors) },
    }),
    async (c) => {
      await deleteProcessCalendar(c.get('deps').db, { tenantId: c.get('caller').tenantId, processDefinitionKey: c.req.valid('param').key });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/sla/calculate',
      tags,
      summary: 'Due date of an SLA: { calendarCode, …, sla } or { processDefinitionKey, … }',
      description:
        'Budget = businessDays × the calendar\'s businessDayMinutes + businessMinutes, consumed over the union of enabled ' +
        'locations from the first business minute at or after the received time. 404 `calendar-not-found` / ' +
        '`process-calendar-not-found`; 409 `calendar-inactive-calendar` or `process-calendar-inactive`; ' +
        '422 `calendar-unreachable` when the budget cannot be reached within five years (e.g. no hours).',
      middleware: reader,
      request: { body: jsonBody(SlaCalculateBody) },
      responses: { 200: jsonContent(SlaResult), ...problemResponses(...authErrors, 409, 422) },
    }),
    async (c) => {
      const b = c.req.valid('json');
      const received = {
        receivedDateTime: b.receivedDateTime,
        ...(b.receivedTimezone !== undefined ? { receivedTimezone: b.receivedTimezone } : {}),
      };
      const request =
        b.processDefinitionKey !== undefined
          ? { ...received, processDefinitionKey: b.processDefinitionKey }
          : { ...received, calendarCode: b.calendarCode!, sla: b.sla! };
      const deps = c.get('deps');
      const result = await withFieldPaths('json', () => calculateTenantSla(deps.db, c.get('caller').tenantId, request, deps.compiledCalendars));
      return c.json(result, 200);
    },
  );

  return app;
}
