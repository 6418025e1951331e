import { OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import { statusOf, type ErrorCode } from '../domain/error-codes';
import { validationFailed } from './body';
import type { AppEnv } from './env';
import { securityOf } from './openapi-security';

/**
 * Every router shares this hook: a failed zod validation becomes a 400 problem naming the fields.
 * Each route's `security` is documented from its middleware chain unless the route names it, and
 * so are the statuses of the problems its middleware raises (see `raises`).
 */
export function createRouter() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(result.target, result.error.issues);
      return undefined;
    },
  });
  const register = app.openapi.bind(app);
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (register as (...args: unknown[]) => unknown)(
      {
        ...route,
        security: route.security ?? securityOf(route.middleware),
        responses: { ...problemResponses(...statusesRaisedBy(route.middleware)), ...route.responses },
      },
      ...rest,
    )) as typeof app.openapi;
  return app;
}

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().openapi({ description: 'Stable machine-readable error code (see README).' }),
    requestId: z.string().optional(),
  })
  .openapi('Problem');

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed input or headers (problem+json with field paths)',
  401: 'Missing or wrong credentials',
  403: 'Caller lacks the membership, ownership or capability layer named in `code`',
  404: 'Not found, or belongs to another tenant (existence is not revealed)',
  409: 'Conflict with the current state',
  410: 'Gone (expired)',
  413: 'Payload above the size cap',
  416: 'Range not satisfiable',
  422: 'Well-formed but refers to something unusable',
  423: 'Locked (quarantined)',
  429: 'Too many requests; retry after `Retry-After` seconds',
  501: 'Part of the spec that is deliberately not built',
  502: 'An upstream provider failed or answered nonsense',
  503: 'A dependency is unavailable',
  504: 'An upstream provider did not answer in time',
};

const raisedBy = new WeakMap<object, readonly ErrorCode[]>();

/** Marks `middleware` as answering the problems `codes`; routes mounting it document their statuses. */
export function raises<T extends object>(middleware: T, ...codes: ErrorCode[]): T {
  raisedBy.set(middleware, codes);
  return middleware;
}

function statusesRaisedBy(chain: unknown): number[] {
  const list: unknown[] = Array.isArray(chain) ? chain : chain ? [chain] : [];
  const codes = list.flatMap((m) => (typeof m === 'function' ? (raisedBy.get(m) ?? []) : []));
  return [...new Set(codes.map(statusOf))];
}

/** OpenAPI response entries for the given error statuses, all problem+json. */
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: DESCRIPTIONS[s] ?? 'Error',
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );
}

export const jsonContent = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const noContent = { description: 'Done; no body' };

/** Path and header parameter schemas shared by routes. */
export const TENANT_ID = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const USER_ID = /^[\x21-\x7E]{1,200}$/;
export const CAPABILITY_CODE = /^[A-Z][A-Z0-9_]{1,39}$/;

export const tenantParam = z
  .string()
  .regex(TENANT_ID, 'must be a tenant id (lower-case letters, digits and dashes)')
  .openapi({ param: { name: 't', in: 'path' }, example: 'acme' });
export const userParam = z
  .string()
  .regex(USER_ID, 'must be 1-200 printable characters without spaces')
  .openapi({ param: { name: 'u', in: 'path' }, example: 'alice' });
export const codeParam = z
  .string()
  .regex(CAPABILITY_CODE, 'must be an upper-case capability code')
  .openapi({ param: { name: 'code', in: 'path' }, example: 'PHONE' });
export const uuidParam = (name = 'id') =>
  z.string().uuid().openapi({ param: { name, in: 'path' }, example: '0b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11' });
