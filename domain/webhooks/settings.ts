// The settings of outbound webhooks (docs/webhooks.md). Kept beside the settings table like the
// identity settings: the table spreads these in, so the loader, the README check and the
// environment names treat them like any other.
import { z } from 'zod';
import { addressRangeList, bool, def, list } from '../setting-builders';
import { parseDuration } from './retry-policy';

/** Comma-separated durations (`5s`, `5m`, `2h`) as milliseconds; each at most a week. */
const durationList = list
  .refine((entries) => entries.every((e) => { const ms = parseDuration(e); return ms !== null && ms <= 7 * 86_400_000; }), {
    message: 'each entry must be a duration such as 200ms, 5s, 5m, 2h or 1d (at most 7d)',
  })
  .transform((entries) => entries.map((e) => parseDuration(e)!));

export const webhookSettingDefs = {
  'webhooks.timeout-ms': def(
    z.coerce.number().int().min(100).max(120_000),
    '15000',
    'Bound on one delivery attempt, connect to the last byte read; a slower endpoint counts as a failed attempt and is retried.',
  ),
  'webhooks.retry-schedule': def(
    durationList,
    '5s,5m,30m,2h,5h,10h,10h',
    'Waits before each retry of a failed delivery (the first attempt is immediate; Svix\'s schedule): after the last, the delivery is FAILED. A 429 or 503 answer\'s `Retry-After` lengthens a wait, never shortens it.',
  ),
  'webhooks.retry-jitter': def(
    z.coerce.number().min(0).max(0.9),
    '0.2',
    'Each retry wait is scaled by a random factor in [1 - jitter, 1 + jitter], so endpoints that failed together are not retried together.',
  ),
  'webhooks.rotation-overlap-hours': def(
    z.coerce.number().min(0).max(24 * 30),
    '24',
    'After `POST /api/webhook-endpoints/{id}/rotate-secret`, deliveries carry a signature with the previous secret beside the new one for this long (0: the old secret stops at once).',
  ),
  'webhooks.disable-after-days': def(
    z.coerce.number().positive().max(365),
    '5',
    'An endpoint whose every attempt failed for this long (since its last success) is disabled; `disabledReason` on the endpoint tells its owners why.',
  ),
  'webhooks.allow-http': def(
    bool,
    'false',
    'Accept `http://` endpoint URLs besides `https://` (`npm start` turns it on for local receivers; production keeps https only).',
  ),
  'webhooks.allow-private-networks': def(
    addressRangeList,
    '',
    'Comma-separated CIDR blocks of loopback, private or reserved addresses an endpoint may resolve to (e.g. `10.20.0.0/16` for an internal receiver). Empty: none. Link-local and cloud metadata addresses (169.254.169.254 and the like) and IPv4-mapped IPv6 addresses are refused whatever this lists.',
  ),
};
