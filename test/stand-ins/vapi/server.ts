/**
 * A local stand-in for the voice provider's REST API (POST /call, GET /call/{id},
 * POST /phone-number), speaking its shapes: bearer auth with the NestJS-style error
 * bodies `{ message, error, statusCode }`, 400 on unknown or missing properties, 201 on
 * creation. Tests point the production client at `baseUrl` and steer it through the
 * control methods (failNext, setCall, seedCall).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { validateCreateCall, validateCreatePhoneNumber, type JsonMap } from './validation.js';

export type StandInRoute = 'POST /call' | 'GET /call/:id' | 'POST /phone-number';
export type StandInFailure = { status: number; body?: unknown } | 'timeout';

export type CallAnswerHook = (call: JsonMap) => Promise<void | { status: number }>;

export interface RecordedRequest {
  method: string;
  path: string;
  route: StandInRoute | null;
  /** The Authorization header as sent (test-only data). */
  authorization: string | null;
  body: unknown;
}

export interface StandInOptions {
  apiKey: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  orgId?: string;
}

export interface VapiStandIn {
  baseUrl: string;
  /** Snapshots (copies) of the stored provider objects, oldest first. */
  readonly calls: JsonMap[];
  readonly numbers: JsonMap[];
  readonly requests: RecordedRequest[];
  /** The next request on `route` fails this way; calls queue up. */
  failNext(route: StandInRoute, failure: StandInFailure): void;
  /**
   * The next created call runs `hook` after it is stored and before POST /call answers — the
   * provider sending webhooks for a call whose creation the client has not heard back about.
   * A status the hook returns is answered instead of 201 (the call still exists, as when a
   * provider fails after creating it).
   */
  beforeNextCallAnswer(hook: CallAnswerHook): void;
  /** Merges provider fields into a stored call, e.g. `{ status: 'ended', endedReason }`. */
  setCall(id: string, patch: JsonMap): JsonMap;
  /** Stores a call the stand-in did not create (an inbound call, say). */
  seedCall(call: JsonMap & { id?: string }): JsonMap;
  /** Forgets calls, numbers, requests and queued failures. */
  reset(): void;
  close(): Promise<void>;
}

const UNAUTHORIZED = {
  message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
  error: 'Unauthorized',
  statusCode: 401,
};

const clone = <T>(value: T): T => structuredClone(value);

export async function start(options: StandInOptions): Promise<VapiStandIn> {
  const orgId = options.orgId ?? randomUUID();
  const calls = new Map<string, JsonMap>();
  const numbers = new Map<string, JsonMap>();
  const requests: RecordedRequest[] = [];
  const failures = new Map<StandInRoute, StandInFailure[]>();
  const hanging = new Set<() => void>();
  const beforeAnswer: CallAnswerHook[] = [];
  let vapiNumberSeq = 0;

  const now = () => new Date().toISOString();

  async function readBody(c: Context): Promise<{ ok: true; body: unknown } | { ok: false; text: string }> {
    const text = await c.req.text();
    if (text === '') return { ok: true, body: undefined };
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      return { ok: false, text };
    }
  }

  /** Records the request, then applies an injected failure or the auth check. */
  async function gate(c: Context, route: StandInRoute, body: unknown): Promise<Response | null> {
    requests.push({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      route,
      authorization: c.req.header('authorization') ?? null,
      body: clone(body),
    });
    const failure = failures.get(route)?.shift();
    if (failure === 'timeout') {
      // Hold the response until the client gives up (or the stand-in closes).
      await new Promise<void>((resolve) => {
        hanging.add(resolve);
        c.req.raw.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return c.json({ message: 'Gateway Timeout', statusCode: 504 }, 504);
    }
    if (failure) {
      const payload = failure.body ?? { message: `Injected failure ${failure.status}`, statusCode: failure.status };
      return new Response(typeof payload === 'string' ? payload : JSON.stringify(payload), {
        status: failure.status,
        headers: { 'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json' },
      });
    }
    if (c.req.header('authorization') !== `Bearer ${options.apiKey}`) return c.json(UNAUTHORIZED, 401);
    return null;
  }

  const badRequest = (c: Context, messages: string[]) =>
    c.json({ message: messages, error: 'Bad Request', statusCode: 400 }, 400);

  const app = new Hono();

  app.post('/call', async (c) => {
    const read = await readBody(c);
    const stop = await gate(c, 'POST /call', read.ok ? read.body : read.text);
    if (stop) return stop;
    if (!read.ok) return badRequest(c, ['Request body is not valid JSON']);
    const checked = validateCreateCall(read.body);
    if (!checked.ok) return badRequest(c, checked.messages);
    const input = checked.value;
    const number = typeof input.phoneNumberId === 'string' ? numbers.get(input.phoneNumberId) : undefined;
    const at = now();
    const call: JsonMap = {
      id: randomUUID(),
      orgId,
      type: 'outboundPhoneCall',
      status: 'queued',
      phoneNumberId: input.phoneNumberId,
      assistantId: input.assistantId,
      customer: input.customer,
      ...(input.assistantOverrides !== undefined ? { assistantOverrides: input.assistantOverrides } : {}),
      phoneCallProvider: typeof number?.provider === 'string' ? number.provider : 'vapi',
      phoneCallTransport: 'pstn',
      cost: 0,
      createdAt: at,
      updatedAt: at,
    };
    calls.set(call.id as string, call);
    const instead = await beforeAnswer.shift()?.(clone(call));
    if (instead) return c.json({ message: `Injected failure ${instead.status}`, statusCode: instead.status }, instead.status as 500);
    return c.json(call, 201);
  });

  app.get('/call/:id', async (c) => {
    const stop = await gate(c, 'GET /call/:id', undefined);
    if (stop) return stop;
    const call = calls.get(c.req.param('id'));
    if (!call) return c.json({ message: 'Not Found', statusCode: 404 }, 404);
    return c.json(call, 200);
  });

  app.post('/phone-number', async (c) => {
    const read = await readBody(c);
    const stop = await gate(c, 'POST /phone-number', read.ok ? read.body : read.text);
    if (stop) return stop;
    if (!read.ok) return badRequest(c, ['Request body is not valid JSON']);
    const checked = validateCreatePhoneNumber(read.body);
    if (!checked.ok) return badRequest(c, checked.messages);
    // Carrier secrets are accepted but, unlike the stored fields, never echoed.
    const { twilioAuthToken: _t, twilioApiSecret: _s, twilioApiKey: _k, ...fields } = checked.value;
    const at = now();
    let assigned: JsonMap = {};
    if (fields.provider === 'vapi') {
      vapiNumberSeq += 1;
      const area = typeof fields.numberDesiredAreaCode === 'string' ? fields.numberDesiredAreaCode : '415';
      assigned = { number: `+1${area}555${String(vapiNumberSeq).padStart(4, '0')}` };
    }
    const stored: JsonMap = { ...fields, ...assigned, id: randomUUID(), orgId, status: 'active', createdAt: at, updatedAt: at };
    numbers.set(stored.id as string, stored);
    return c.json(stored, 201);
  });

  app.notFound((c) =>
    c.json({ message: `Cannot ${c.req.method} ${new URL(c.req.url).pathname}`, error: 'Not Found', statusCode: 404 }, 404),
  );

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;

  return {
    baseUrl: `http://${address.address}:${address.port}`,
    get calls() {
      return [...calls.values()].map(clone);
    },
    get numbers() {
      return [...numbers.values()].map(clone);
    },
    get requests() {
      return requests.map(clone);
    },
    beforeNextCallAnswer(hook) {
      beforeAnswer.push(hook);
    },
    failNext(route, failure) {
      const queue = failures.get(route) ?? [];
      queue.push(failure);
      failures.set(route, queue);
    },
    setCall(id, patch) {
      const call = calls.get(id);
      if (!call) throw new Error(`stand-in has no call ${id}`);
      Object.assign(call, clone(patch), { updatedAt: now() });
      if (call.status === 'ended' && call.endedAt === undefined) call.endedAt = call.updatedAt;
      return clone(call);
    },
    seedCall(seed) {
      const at = now();
      const call: JsonMap = { orgId, type: 'inboundPhoneCall', status: 'ringing', createdAt: at, updatedAt: at, ...clone(seed) };
      call.id = typeof seed.id === 'string' ? seed.id : randomUUID();
      calls.set(call.id as string, call);
      return clone(call);
    },
    reset() {
      beforeAnswer.length = 0;
      calls.clear();
      numbers.clear();
      requests.length = 0;
      failures.clear();
    },
    async close() {
      for (const release of hanging) release();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
