import type { Context } from 'hono';
import type { LocationAddress } from '../../services/calendars/locations';
import type { AppEnv } from '../env';

/** The caller's tenant's location that the path's calendar and location codes name. */
export const locationAddress = (c: Context<AppEnv>, { code, loc }: { code: string; loc: string }): LocationAddress => ({
  tenantId: c.get('caller').tenantId,
  calendarCode: code,
  locationCode: loc,
});
