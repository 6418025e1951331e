import { createRouter } from '../openapi';
import { calendarCrudRoutes, calendarReadRoutes } from './calendar-routes';
import { holidayRoutes } from './holiday-routes';
import { locationRoutes } from './location-routes';
import { slaRoutes } from './sla-routes';

/**
 * Business calendars and SLA under /api. Every route accepts HTTP Basic credentials of a tenant
 * API client or the gateway identity headers, plus X-Tenant-Id; guard CALENDAR, or SLA for
 * /sla/calculate and the process associations.
 */
export function calendarRoutes() {
  const app = createRouter();
  app.route('/', calendarCrudRoutes());
  app.route('/', calendarReadRoutes());
  app.route('/', locationRoutes());
  app.route('/', holidayRoutes());
  app.route('/', slaRoutes());
  return app;
}
