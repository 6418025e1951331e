// The audit view of a public request's sender. The address follows the rate limits' rule
// (client-address.ts); classification and location are filled in by the IP-risk and geo module.
import type { Context } from 'hono';
import type { ClientContext } from '../../domain/net/client-context';
import type { AppEnv } from '../env';
import { clientAddress } from './client-address';

const USER_AGENT_MAX = 512;

export function clientContext(c: Context<AppEnv>): ClientContext {
  const ip = clientAddress(c);
  const userAgent = c.req.header('user-agent')?.slice(0, USER_AGENT_MAX) ?? null;
  return { ip: ip === 'unknown' ? null : ip, userAgent, ipRisk: null, geo: null };
}
