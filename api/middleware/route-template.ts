import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import { UNMATCHED_ROUTE } from '../../integrations/metrics/http';

/**
 * The route template that answered (`/api/documents/{id}` as registered, `:id` style), never the
 * raw path. `use` middleware (method ALL) match every path, so only a route registered for a method
 * names the request; with none, it is unmatched (a 404 for any path is one label, not one per path).
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== 'ALL') return routes[i]!.path;
  return UNMATCHED_ROUTE;
}
