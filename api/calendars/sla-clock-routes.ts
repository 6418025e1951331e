import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { listTenantSlaClocks, readSlaClock } from '../../services/calendars/sla-clock-reads';
import { cancelSlaClock, pauseSlaClock, resumeSlaClock, startSlaClock, stopSlaClock, type SlaClockDeps } from '../../services/calendars/sla-clocks';
import type { AppEnv } from '../env';
import { createRouter, jsonBody, jsonContent, problemResponses } from '../openapi';
import { guarded } from './guards';
import { recordIdParam } from './schemas';
import { CLOCK_PAGE_SIZE_CAP, SlaClockDetail, SlaClockListQuery, SlaClockPage, SlaClockStartBody } from './sla-clock-schemas';
import { slaClockDetailView, slaClockView } from './sla-clock-views';

const tags = ['SLA clocks'];
const reader = guarded('SLA', 'read');
const writer = guarded('SLA', 'write');
const authErrors = [400, 401, 403, 404] as const;
const IdPath = z.object({ id: recordIdParam });

const clockDeps = (c: Context<AppEnv>): SlaClockDeps => {
  const { db, compiledCalendars, clock } = c.get('deps');
  return { db, compiledCalendars, clock };
};

const STEPS = {
  pause: { run: pauseSlaClock, summary: 'Pause a RUNNING clock: paused time does not count (409 `sla-clock-state-conflict` otherwise)' },
  resume: { run: resumeSlaClock, summary: 'Resume a PAUSED clock: the due date moves by the business time it was paused' },
  stop: { run: stopSlaClock, summary: 'Stop the clock: MET before its due date; a BREACHED clock stays BREACHED' },
} as const;

/** SLA clocks under /api/sla-clocks (docs/calendars.md "SLA clocks"); guard SLA, reads `read`, writes `read-write`. */
export function slaClockRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/sla-clocks',
      tags,
      summary: "Start an SLA clock on a process association's calendar, with its durable process",
      description:
        'The budget (days × the calendar\'s businessDayMinutes + minutes) is consumed while the clock runs; a warning is recorded at ' +
        'each `warnAt` percentage and the breach at 100 %. 404 `process-calendar-not-found`; 409 `process-calendar-inactive` or ' +
        '`calendar-inactive-calendar`; 422 `calendar-unreachable` when the budget cannot be consumed within five years.',
      middleware: writer,
      request: { body: jsonBody(SlaClockStartBody) },
      responses: { 201: jsonContent(SlaClockDetail, 'Started'), ...problemResponses(...authErrors, 409, 422, 503) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const b = c.req.valid('json');
      const reading = await startSlaClock(clockDeps(c), {
        tenantId: caller.tenantId,
        actor: caller.userId,
        processCalendarKey: b.processCalendarKey,
        receivedAt: b.receivedAt,
        budget: b.budget,
        subject: b.subject,
        warnAt: b.warnAt,
      });
      return c.json(slaClockDetailView(reading), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sla-clocks',
      tags,
      summary: 'List clocks, newest first, by subject and state (keyset-paged; page size capped at 200)',
      middleware: reader,
      request: { query: SlaClockListQuery },
      responses: { 200: jsonContent(SlaClockPage), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await listTenantSlaClocks(clockDeps(c), {
        tenantId: c.get('caller').tenantId,
        subjectKind: q.subjectKind,
        subjectId: q.subjectId,
        state: q.state,
        limit: Math.min(q.limit, CLOCK_PAGE_SIZE_CAP),
        cursor: q.cursor,
      });
      return c.json({ items: page.items.map(slaClockView), limit: page.limit, nextCursor: page.nextCursor }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/sla-clocks/{id}',
      tags,
      summary: 'One clock: state, due date, elapsed and remaining business minutes, warnings and history',
      description: "404 `sla-clock-not-found` for an unknown clock or another tenant's.",
      middleware: reader,
      request: { params: IdPath },
      responses: { 200: jsonContent(SlaClockDetail), ...problemResponses(...authErrors) },
    }),
    async (c) => {
      const reading = await readSlaClock(clockDeps(c), { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
      return c.json(slaClockDetailView(reading), 200);
    },
  );

  for (const [step, { run, summary }] of Object.entries(STEPS)) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/sla-clocks/{id}/${step}`,
        tags,
        summary,
        description: '404 `sla-clock-not-found`; 409 `sla-clock-state-conflict` (with `state`) when the clock is not in a state that allows the step.',
        middleware: writer,
        request: { params: IdPath },
        responses: { 200: jsonContent(SlaClockDetail), ...problemResponses(...authErrors, 409, 503) },
      }),
      async (c) => {
        const reading = await run(clockDeps(c), { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
        return c.json(slaClockDetailView(reading), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/sla-clocks/{id}',
      tags,
      summary: 'Cancel a RUNNING or PAUSED clock (→ CANCELLED; the clock stays readable)',
      description: '404 `sla-clock-not-found`; 409 `sla-clock-state-conflict` (with `state`) when the clock is finished.',
      middleware: writer,
      request: { params: IdPath },
      responses: { 200: jsonContent(SlaClockDetail), ...problemResponses(...authErrors, 409, 503) },
    }),
    async (c) => {
      const reading = await cancelSlaClock(clockDeps(c), { tenantId: c.get('caller').tenantId, id: c.req.valid('param').id });
      return c.json(slaClockDetailView(reading), 200);
    },
  );

  return app;
}
