// The settings of identity at the edge (docs/identity.md): how the platform learns who calls it.
// Kept beside the settings table rather than in it so the table file stays readable; the table
// spreads these in, so the loader, the README check and the env names treat them like any other.
import { z } from 'zod';
import { def, int } from './setting-builders';

const blankToUndefined = (v: string) => (v.trim() === '' ? undefined : v.trim());
/** An RFC 9110 field name: the header a gateway puts its assertion in. */
const headerName = z.string().trim().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be an HTTP header name');
/** A JWT claim name (no dots: claims are read at the top level of the payload). */
const claimName = z.string().trim().regex(/^[^\s.]{1,100}$/, 'must be a claim name without spaces or dots');

export const authSettingDefs = {
  'auth.mode': def(
    z.enum(['header', 'jwt']),
    'header',
    '`header`: the gateway asserts the user in `X-User-Id`, `X-User-Name`, `X-User-Email` and strips them from client requests. `jwt`: the user comes only from a signed assertion the gateway adds (`auth.jwt-header`), verified against `auth.jwks-url`, `auth.issuer` and `auth.audience`; a request carrying `X-User-Id` is refused (400).',
  ),
  'auth.jwt-header': def(
    headerName,
    'Authorization',
    'Header holding the assertion in `jwt` mode: `Authorization` as `Bearer <jwt>`, or the raw JWT in e.g. `X-Pomerium-Jwt-Assertion`, `Cf-Access-Jwt-Assertion`, `X-Goog-IAP-JWT-Assertion`.',
  ),
  'auth.jwks-url': def(
    z.string().transform(blankToUndefined).pipe(z.string().url().optional()),
    '',
    "URL of the identity provider's JSON Web Key Set (required in `jwt` mode).",
  ),
  'auth.issuer': def(z.string().transform(blankToUndefined), '', 'Expected `iss` of the assertion (required in `jwt` mode).'),
  'auth.audience': def(
    z.string().transform((v) => v.split(',').map((s) => s.trim()).filter((s) => s.length > 0)),
    '',
    'Comma-separated accepted `aud` values; the assertion must name one (required in `jwt` mode).',
  ),
  'auth.clock-skew-seconds': def(int(0, 3_600), '60', 'Clock tolerance when checking `exp`, `nbf` and `iat` of an assertion.'),
  'auth.user-claim': def(claimName, 'sub', 'Claim that fills what `X-User-Id` fills in `header` mode (a string of 1-200 printable characters, else 401).'),
  'auth.name-claim': def(claimName, 'name', 'Claim that fills what `X-User-Name` fills (optional; an unusable value is ignored).'),
  'auth.email-claim': def(claimName, 'email', 'Claim that fills what `X-User-Email` fills (optional; an unusable value is ignored).'),
  'auth.jwks-cache-max-age-seconds': def(
    int(0, 86_400),
    '600',
    'How long fetched keys are used before the key set is fetched again, so a removed key stops verifying within this time (0: fetch on every request).',
  ),
  'auth.jwks-cooldown-seconds': def(
    int(0, 3_600),
    '30',
    'After a fetch, an assertion naming an unknown `kid` is refused without fetching again for this long (a rotated-in key is fetched at once otherwise).',
  ),
  'auth.jwks-timeout-ms': def(
    int(100, 60_000),
    '5000',
    'Bound on one key set fetch; a slower or unreachable provider answers 503 `identity-provider-unavailable`.',
  ),
} as const;

type AuthValues = { [K in keyof typeof authSettingDefs]: z.output<(typeof authSettingDefs)[K]['schema']> };

/** The rules that span several auth settings: `jwt` mode needs its key set, issuer and audience. */
export function authSettingProblems(values: Partial<AuthValues>): string[] {
  if (values['auth.mode'] !== 'jwt') return [];
  const problems: string[] = [];
  if (!values['auth.jwks-url']) problems.push('AUTH_MODE=jwt needs AUTH_JWKS_URL (the identity provider\'s JSON Web Key Set URL)');
  if (!values['auth.issuer']) problems.push('AUTH_MODE=jwt needs AUTH_ISSUER (the `iss` the assertions carry)');
  if (!values['auth.audience']?.length) problems.push('AUTH_MODE=jwt needs AUTH_AUDIENCE (the `aud` the assertions carry)');
  return problems;
}
