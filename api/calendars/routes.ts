import { createRouter } from '../openapi';
import { calendarCrudRoutes, calendarReadRoutes } from './calendar-routes';
import { holidayRoutes } from './holiday-routes';
import { locationRoutes } from './location-routes';
import { slaClockRoutes } from './sla-clock-routes';
import { slaRoutes } from './sla-routes';

/**
 * Business calendars and SLA under /api. Every route accepts HTTP Basic credentials of a tenant
 * API client or the gateway identity headers, plus X-Tenant-Id; guard CALENDAR, or SLA for
 * /sla/calculate, the process associations and the SLA clocks.
 */
export function calendarRoutes() {
  const app = createRouter();
  app.route('/', calendarCrudRoutes());
  app.route('/', calendarReadRoutes());
  app.route('/', locationRoutes());
  app.route('/', holidayRoutes());
  app.route('/', slaRoutes());
  app.route('/', slaClockRoutes());
  return app;
}
