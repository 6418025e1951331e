// The phone capability's settings (docs/phone.md), spread into the settings table (domain/settings.ts).
import { bool, def, int, list, optionalText, url } from '../setting-builders';

export const phoneSettingDefs = {
  'phone.provider-base-url': def(url, 'https://api.vapi.ai', 'Base URL of the voice provider REST API.'),
  'phone.provider-api-key': def(
    optionalText,
    '',
    'Fallback provider private key for tenants without their own (dev or single-account mode).',
    true,
  ),
  'phone.provider-timeout-ms': def(int(100, 120_000), '10000', 'Bound on each provider request, connect to last byte.'),
  'phone.webhook-secret': def(
    optionalText,
    '',
    'Shared secret expected in `X-Voice-Secret` on provider webhooks. Unset: webhooks are allowed and a warning is logged.',
    true,
  ),
  'phone.webhook-require-secret': def(
    bool,
    'false',
    'Answer 401 to a webhook whose `X-Voice-Secret` is missing or wrong (also when no secret is configured).',
  ),
  'phone.tool-calls-budget-ms': def(
    int(100, 20_000),
    '7000',
    'Total time the `tool-calls` webhook gives its tools before answering (spec: about 7.5 s).',
  ),
  'phone.reconcile-after-ms': def(
    int(1_000, 30 * 24 * 3_600_000),
    '7200000',
    'How long a call process waits for `PhoneCallEnded` before asking the provider for the call.',
  ),
  'phone.reconcile-retry-ms': def(
    int(1_000, 30 * 24 * 3_600_000),
    '1800000',
    'Wait between reconciliation attempts while the provider still reports the call as running or is unreachable.',
  ),
  'phone.reconcile-max-attempts': def(
    int(0, 100),
    '4',
    'Provider look-ups per call process; afterwards the process only waits for `PhoneCallEnded` (0: never ask).',
  ),
  'phone.do-not-call-ended-reasons': def(
    list,
    'customer-asked-not-to-be-called',
    'Comma-separated provider endedReasons that mean the callee asked not to be called: a call ending so adds its number to the do-not-call list.',
  ),
  'phone.do-not-call-tool': def(
    optionalText,
    'addToDoNotCall',
    'Name of the built-in assistant tool that adds the caller to the do-not-call list (blank: not offered).',
  ),
};
