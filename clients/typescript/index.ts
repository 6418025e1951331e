/// <reference lib="dom" />
// The hand-written half of the TypeScript client: a configured fetch client that carries the
// caller's identity and tenant, and the platform's problem+json errors as PlatformProblem values.
// The operations and their types are generated into ./generated (`npm run client:generate`);
// pass the client to each: `postApiTenants({ client, body })`. docs/client.md has the rules.
// The DOM library above: the generated fetch client names its `BodyInit`, which Node's types lack.
import { createClient, createConfig, type Client } from './generated/client';
import type { Problem } from './generated/types.gen';

export interface PlatformClientOptions {
  /** The API's origin, e.g. `http://localhost:3000`; operation paths start at `/api/...`. */
  baseUrl: string;
  /** Sent as `X-User-Id`: the calling user as the gateway asserts it (`auth.mode=header`). */
  userId?: string;
  /** Sent as `X-Tenant-Id`: the tenant the calls act in. */
  tenantId?: string;
  /** Sent as `Authorization: Bearer <token>`: the gateway's signed assertion (`auth.mode=jwt`). */
  bearer?: string;
  /** The fetch to call; the global one by default. */
  fetch?: typeof fetch;
}

/** The code of a failed answer that was not problem+json (a proxy's error page, say). */
export const UNEXPECTED_RESPONSE = 'unexpected-response';

/**
 * An answer of status 4xx or 5xx. Its fields are the problem document's (RFC 9457) and `code` is
 * the stable code of the README's error table; `body` holds the whole document, extension
 * members included (such as `errors`, `instanceStatus` or `callId` on some codes).
 */
export class PlatformProblem extends Error implements Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly requestId?: string;
  readonly body: Readonly<Record<string, unknown>>;

  constructor(problem: Problem & Record<string, unknown>) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'PlatformProblem';
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.detail = problem.detail;
    this.code = problem.code;
    if (problem.requestId !== undefined) this.requestId = problem.requestId;
    this.body = problem;
  }

  /** The problem of a failed answer whose body the client already read (parsed JSON or text). */
  static fromAnswer(body: unknown, response: Response): PlatformProblem {
    if (isProblem(body)) return new PlatformProblem(body);
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
    return new PlatformProblem({
      type: 'about:blank',
      title: response.statusText || `HTTP ${response.status}`,
      status: response.status,
      // Enough to recognise the page that came back, not the whole of it.
      detail: `The answer was ${response.headers.get('content-type') ?? 'untyped'}, not a problem: ${text.slice(0, 200)}`,
      code: UNEXPECTED_RESPONSE,
    });
  }
}

function isProblem(body: unknown): body is Problem & Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.status === 'number' && typeof b.title === 'string' && typeof b.detail === 'string';
}

/**
 * A client for the generated operations. Errors follow hey-api's fetch client: by default an
 * operation resolves to `{ data, error, response }` with `error` a PlatformProblem for any 4xx or
 * 5xx; with `throwOnError: true` on the call it resolves to `{ data, response }` and throws the
 * PlatformProblem instead. A network failure is the fetch's own error, never a PlatformProblem.
 */
export function createPlatformClient(options: PlatformClientOptions): Client {
  const headers: Record<string, string> = {};
  if (options.userId !== undefined) headers['X-User-Id'] = options.userId;
  if (options.tenantId !== undefined) headers['X-Tenant-Id'] = options.tenantId;
  if (options.bearer !== undefined) headers.Authorization = `Bearer ${options.bearer}`;
  const client = createClient(createConfig({ baseUrl: options.baseUrl, headers, ...(options.fetch ? { fetch: options.fetch } : {}) }));
  client.interceptors.error.use((error, response) => (response && !response.ok ? PlatformProblem.fromAnswer(error, response) : error));
  return client;
}
