// RegistryClient over HTTP: the registry's /api/internal/documents routes on another node.
// Registry problems (4xx) are re-raised with the same status and code, so the proxy answers
// exactly what an in-process registry would; transport failures and 5xx become 503. It stays in
// api/ with the wire schemas and the storage ticket it shares with the internal routes.
import type { z } from '@hono/zod-openapi';
import { isErrorCode } from '../../domain/error-codes';
import { AppError } from '../../domain/errors';
import type {
  Authorization,
  AuthorizeInput,
  DocumentPageResult,
  FinalizeInput,
  ListInput,
  ProcessStartedInput,
  ProcessStartedResult,
  RegistryCaller,
  RegistryClient,
  Removal,
  Resolution,
} from '../../services/documents/registry-client';
import { encodePrincipal, PRINCIPAL_HEADER } from './registry-identity';
import {
  AuthorizeResponse,
  DocumentPage,
  DocumentView,
  ProcessStartedResponse,
  RemoveResponse,
  ResolveResponse,
} from './schemas';
import { openStorageTicket } from './storage-ticket';

export interface HttpRegistryOptions {
  baseUrl: string;
  internalKey: string;
  timeoutMs?: number;
}

const unavailable = (why: string) => new AppError('registry-unavailable', `The document registry is unavailable: ${why}`);

export class HttpRegistryClient implements RegistryClient {
  private readonly base: string;

  constructor(private readonly o: HttpRegistryOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
  }

  private async call<T extends z.ZodType>(
    caller: RegistryCaller,
    method: string,
    path: string,
    schema: T,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<z.output<T>> {
    const h: Record<string, string> = {
      'X-Internal-Key': this.o.internalKey,
      'X-Tenant-Id': caller.tenantId,
      ...headers,
    };
    if (caller.kind === 'user') h['X-User-Id'] = caller.userId;
    else h[PRINCIPAL_HEADER] = encodePrincipal(caller);
    if (caller.requestId) h['X-Request-Id'] = caller.requestId;
    if (body !== undefined) h['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/internal/documents${path}`, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw unavailable(err instanceof Error ? err.name : 'network error');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw unavailable(`HTTP ${res.status} without a JSON body`);
    }
    if (res.status >= 500) throw unavailable(`HTTP ${res.status}`);
    if (!res.ok) {
      const p = (json ?? {}) as { code?: unknown; detail?: unknown; field?: unknown; reason?: unknown };
      if (typeof p.code !== 'string') throw unavailable(`HTTP ${res.status} without a problem`);
      // Both tiers share the code table; a code this node does not know is a version skew, not the caller's fault.
      if (!isErrorCode(p.code)) throw unavailable(`HTTP ${res.status} with an unknown problem code`);
      // The internal key is between the tiers: a refusal of it is the proxy's misconfiguration.
      if (p.code === 'internal-key-invalid' || p.code === 'internal-api-disabled') throw unavailable(p.code);
      const extra: Record<string, unknown> = {};
      if (p.field !== undefined) extra['field'] = p.field;
      if (p.reason !== undefined) extra['reason'] = p.reason;
      throw new AppError(p.code, typeof p.detail === 'string' ? p.detail : 'Registry refused', extra);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw unavailable('unexpected response shape');
    return parsed.data;
  }

  private open(caller: RegistryCaller, docId: string, ticket: string) {
    return openStorageTicket(this.o.internalKey, caller.tenantId, docId, ticket);
  }

  async authorize(caller: RegistryCaller, input: AuthorizeInput): Promise<Authorization> {
    const r = await this.call(caller, 'POST', '/authorize', AuthorizeResponse, input);
    return { docId: r.docId, version: r.version, retention: r.retention, document: r.document, storageKey: this.open(caller, r.docId, r.storageTicket) };
  }

  finalize(caller: RegistryCaller, docId: string, input: FinalizeInput) {
    return this.call(caller, 'POST', `/${docId}/finalize`, DocumentView, input);
  }

  async resolve(caller: RegistryCaller, docId: string): Promise<Resolution> {
    const r = await this.call(caller, 'POST', `/${docId}/resolve`, ResolveResponse);
    return { document: r.document, storageVersionId: r.storageVersionId, storageKey: this.open(caller, docId, r.storageTicket) };
  }

  get(caller: RegistryCaller, docId: string) {
    return this.call(caller, 'GET', `/${docId}`, DocumentView);
  }

  async list(caller: RegistryCaller, input: ListInput): Promise<DocumentPageResult> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(input.selector)) q.set(k, String(v));
    q.set('limit', String(input.limit));
    if (input.cursor) q.set('cursor', input.cursor);
    return this.call(caller, 'GET', `?${q.toString()}`, DocumentPage);
  }

  async remove(caller: RegistryCaller, docId: string, expectedVersion?: number): Promise<Removal> {
    const headers: Record<string, string> = expectedVersion === undefined ? {} : { 'If-Match': `"${expectedVersion}"` };
    const r = await this.call(caller, 'DELETE', `/${docId}`, RemoveResponse, undefined, headers);
    return {
      document: r.document,
      storageVersionId: r.storageVersionId,
      hardDelete: r.hardDelete,
      storageKey: this.open(caller, docId, r.storageTicket),
    };
  }

  processStarted(caller: RegistryCaller, input: ProcessStartedInput): Promise<ProcessStartedResult> {
    return this.call(caller, 'POST', '/process-started', ProcessStartedResponse, input);
  }
}
