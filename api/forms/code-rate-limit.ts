// The budgets of one-time-code requests and verifications (per client address, per link token),
// shared by the forms recipients and the signers: the same settings, each capability its own keys.
import { pairedRateLimit } from '../middleware/paired-rate-limit';

/** Middleware counting against the `prefix` budgets; above either, 429 `rate-limited`. */
export const codeRateLimit = (prefix: string) =>
  pairedRateLimit({
    prefix,
    perIpPerMinute: (s) => s['forms.rate-limit.recipient-per-ip-per-minute'],
    perTokenPerMinute: (s) => s['forms.rate-limit.recipient-per-token-per-minute'],
    refusal: 'Too many code requests; retry later',
    token: (c) => c.req.param('token') ?? '',
  });
