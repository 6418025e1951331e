// The credentials a route needs, documented from the middleware that checks them: createRouter
// fills each operation's `security` from its middleware chain, so the OpenAPI document cannot
// drift from what the routes enforce. Middleware that establishes an identity declares here the
// credentials it accepts (each alternative a set of schemes); a route needs all of its
// middleware's, so the chain's requirement is the product of their alternatives.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Settings } from '../domain/settings';

export type SecurityRequirement = Record<string, string[]>;

export const SECURITY_SCHEMES = {
  UserId: { type: 'apiKey', in: 'header', name: 'X-User-Id', description: 'The calling user, asserted by the gateway.' },
  TenantId: { type: 'apiKey', in: 'header', name: 'X-Tenant-Id', description: 'The tenant acted in, asserted by the gateway.' },
  ApiClient: {
    type: 'http',
    scheme: 'basic',
    description: 'A tenant API client (`POST /api/tenants/{t}/api-clients`): client id and secret; together with X-Tenant-Id.',
  },
  InternalKey: { type: 'apiKey', in: 'header', name: 'X-Internal-Key', description: 'Shared secret of platform services (setting `internal.key`).' },
  VoiceSecret: { type: 'apiKey', in: 'header', name: 'X-Voice-Secret', description: 'Shared secret of the voice provider (setting `phone.webhook-secret`).' },
  DocumentPrincipal: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Document-Principal',
    description: 'The service principal (workflow, embed token holder, signer) a platform service acts for on the document registry: base64url JSON; with X-Internal-Key.',
  },
} as const;

export type SchemeName = keyof typeof SECURITY_SCHEMES;

const accepted = new WeakMap<object, SchemeName[][]>();

/** Marks `middleware` as accepting any one of `alternatives` (each a set of schemes). */
export function accepts<T extends object>(middleware: T, ...alternatives: SchemeName[][]): T {
  accepted.set(middleware, alternatives);
  return middleware;
}

/** What a middleware chain requires; [] when none of it checks credentials (a public route). */
export function securityOf(chain: unknown): SecurityRequirement[] {
  const list: unknown[] = Array.isArray(chain) ? chain : chain ? [chain] : [];
  let combos: SchemeName[][] = [[]];
  for (const middleware of list) {
    const alternatives = typeof middleware === 'function' ? accepted.get(middleware) : undefined;
    if (!alternatives) continue;
    combos = combos.flatMap((combo) => alternatives.map((alt) => [...new Set([...combo, ...alt])]));
  }
  return combos.filter((combo) => combo.length > 0).map((combo) => Object.fromEntries(combo.sort().map((s) => [s, []])));
}

/**
 * Registers the schemes. With `auth.mode=jwt` the scheme named UserId describes the signed
 * assertion instead (a bearer token, or the gateway's own header): the routes keep requiring the
 * same scheme name, only how the user is proven changes (docs/identity.md).
 */
export function registerSecuritySchemes(registry: OpenAPIHono['openAPIRegistry'], settings?: Pick<Settings, 'auth.mode' | 'auth.jwt-header'>) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    const shown = name === 'UserId' && settings?.['auth.mode'] === 'jwt' ? assertionScheme(settings['auth.jwt-header']) : scheme;
    registry.registerComponent('securitySchemes', name, { ...shown });
  }
}

function assertionScheme(header: string) {
  const description = 'The calling user: a JWT the gateway signs, verified against the identity provider key set (`auth.mode=jwt`); X-User-Id is refused.';
  if (header.toLowerCase() === 'authorization') return { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description } as const;
  return { type: 'apiKey', in: 'header', name: header, description } as const;
}
