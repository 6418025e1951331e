import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createVapiClient, VapiError, type CreatePhoneNumberInput } from '../../../integrations/vapi/client.js';
import { start, type VapiStandIn } from '../../stand-ins/vapi/server.js';

const API_KEY = 'sk-test-7f3a9c1e-very-secret-private-key';
const TWILIO_TOKEN = 'twilio-auth-token-0123456789abcdef';

let standIn: VapiStandIn;

beforeAll(async () => {
  standIn = await start({ port: 0, apiKey: API_KEY });
});
afterEach(() => standIn.reset());
afterAll(async () => {
  await standIn.close();
});

const client = (overrides: Partial<Parameters<typeof createVapiClient>[0]> = {}) =>
  createVapiClient({ baseUrl: standIn.baseUrl, apiKey: API_KEY, timeoutMs: 2000, ...overrides });

async function failure(promise: Promise<unknown>): Promise<VapiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VapiError);
  return error as VapiError;
}

/** The key and carrier secrets must not leak through any rendering of an error. */
function expectNoSecrets(error: VapiError, ...secrets: string[]) {
  for (const secret of [API_KEY, ...secrets]) {
    expect(error.message).not.toContain(secret);
    expect(String(error)).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(error.stack ?? '').not.toContain(secret);
  }
}

const callInput = {
  phoneNumberId: 'pn-1',
  assistantId: 'asst-1',
  customer: { number: '+14155550123' },
};

describe('vapi client: create call (POST /call)', () => {
  it('sends bearer auth, phone number, assistant, customer and overrides; returns the typed call', async () => {
    const call = await client().createCall({
      ...callInput,
      assistantOverrides: { variableValues: { firstName: 'Ada' }, metadata: { tenantId: 't1', callId: 'ours-1' } },
    });
    expect(call).toMatchObject({
      status: 'queued',
      type: 'outboundPhoneCall',
      phoneNumberId: 'pn-1',
      assistantId: 'asst-1',
      customer: { number: '+14155550123', name: null },
      endedReason: null,
    });
    expect(call.id).toMatch(/[0-9a-f-]{36}/);
    const [request] = standIn.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/call', authorization: `Bearer ${API_KEY}` });
    expect(request?.body).toEqual({
      phoneNumberId: 'pn-1',
      assistantId: 'asst-1',
      customer: { number: '+14155550123' },
      assistantOverrides: { variableValues: { firstName: 'Ada' }, metadata: { tenantId: 't1', callId: 'ours-1' } },
    });
    expect(standIn.calls.map((c) => c.id)).toEqual([call.id]);
  });

  it('omits assistantOverrides when there are none', async () => {
    await client().createCall({ ...callInput, assistantOverrides: {} });
    expect(standIn.requests[0]?.body).not.toHaveProperty('assistantOverrides');
  });

  it('accepts a base URL with a trailing slash', async () => {
    await expect(client({ baseUrl: `${standIn.baseUrl}/` }).createCall(callInput)).resolves.toMatchObject({ status: 'queued' });
  });
});

describe('vapi client: get call (GET /call/{id})', () => {
  it('returns the call as the provider reports it, ended with reason, transcript, recording, summary', async () => {
    const created = await client().createCall(callInput);
    standIn.setCall(created.id, {
      status: 'ended',
      endedReason: 'customer-ended-call',
      cost: 0.42,
      artifact: { transcript: 'AI: Hi', recordingUrl: 'https://rec/1.wav' },
      analysis: { summary: 'Short call.' },
    });
    const call = await client().getCall(created.id);
    expect(call).toMatchObject({
      id: created.id,
      status: 'ended',
      endedReason: 'customer-ended-call',
      cost: 0.42,
      transcript: 'AI: Hi',
      recordingUrl: 'https://rec/1.wav',
      summary: 'Short call.',
      analysis: { summary: 'Short call.' },
    });
    expect(call.endedAt).not.toBeNull();
    expect(call.raw).toMatchObject({ id: created.id, status: 'ended' });
  });

  it('an unknown call is an http error with status 404', async () => {
    const error = await failure(client().getCall('nope'));
    expect(error).toMatchObject({ kind: 'http', status: 404, retryable: false });
    expect(error.message).toBe('Vapi GET /call/nope failed with HTTP 404 Not Found: Not Found');
  });

  it('encodes the id into the path', async () => {
    await failure(client().getCall('../phone-number'));
    expect(standIn.requests[0]?.path).toBe('/call/..%2Fphone-number');
  });
});

describe('vapi client: create phone number (POST /phone-number), each provider', () => {
  const cases: Array<[string, CreatePhoneNumberInput, Record<string, unknown>]> = [
    ['vapi (bought from the provider)', { provider: 'vapi', numberDesiredAreaCode: '628', name: 'Support', assistantId: 'asst-1' }, { provider: 'vapi', name: 'Support', assistantId: 'asst-1' }],
    ['twilio (auth token)', { provider: 'twilio', number: '+14155550100', twilioAccountSid: 'AC123', twilioAuthToken: TWILIO_TOKEN, name: 'Sales' }, { provider: 'twilio', number: '+14155550100', name: 'Sales' }],
    ['twilio (API key and secret)', { provider: 'twilio', number: '+14155550101', twilioAccountSid: 'AC123', twilioApiKey: 'SK1', twilioApiSecret: 'api-secret-value' }, { provider: 'twilio', number: '+14155550101' }],
    ['vonage', { provider: 'vonage', number: '+442071838750', credentialId: 'cred-vonage', assistantId: 'asst-2' }, { provider: 'vonage', number: '+442071838750', assistantId: 'asst-2' }],
    ['telnyx', { provider: 'telnyx', number: '+4930123456', credentialId: 'cred-telnyx' }, { provider: 'telnyx', number: '+4930123456', name: null, assistantId: null }],
  ];

  it.each(cases)('%s', async (_label, input, expected) => {
    const number = await client().createPhoneNumber(input);
    expect(number).toMatchObject({ ...expected, status: 'active' });
    expect(number.id).toMatch(/[0-9a-f-]{36}/);
    expect(number.number).toMatch(/^\+\d+$/);
    expect(standIn.requests[0]?.body).toEqual(input);
  });

  it('a provider number gets digits in the requested area code', async () => {
    const number = await client().createPhoneNumber({ provider: 'vapi', numberDesiredAreaCode: '628' });
    expect(number.number).toMatch(/^\+1628555\d{4}$/);
  });

  it('carrier credentials are sent but never returned or stored by the stand-in', async () => {
    const number = await client().createPhoneNumber(cases[1]![1]);
    expect(JSON.stringify(number)).not.toContain(TWILIO_TOKEN);
    expect(JSON.stringify(standIn.numbers)).not.toContain(TWILIO_TOKEN);
  });

  it('missing carrier fields are a 400 naming them', async () => {
    const error = await failure(
      client().createPhoneNumber({ provider: 'vonage', number: '+442071838750' } as unknown as CreatePhoneNumberInput),
    );
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.message).toContain('credentialId must be a string');
  });
});

describe('vapi client: provider errors are mapped with their status', () => {
  it('400 from validation (customer number not E.164) names the field', async () => {
    const error = await failure(client().createCall({ ...callInput, customer: { number: '0415 555 0123' } }));
    expect(error).toMatchObject({ kind: 'http', status: 400, retryable: false });
    expect(error.message).toMatch(/^Vapi POST \/call failed with HTTP 400 Bad Request: customer\.number must be a valid phone number in the E\.164 format/);
  });

  it('401 on a wrong key, without echoing either key', async () => {
    const error = await failure(client({ apiKey: 'sk-wrong-key-123456' }).createCall(callInput));
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(error.message).toContain('Invalid Key');
    expect(error.message).not.toContain('sk-wrong-key-123456');
    expectNoSecrets(error);
  });

  it.each([
    [500, true],
    [502, true],
    [503, true],
    [429, true],
    [404, false],
    [422, false],
  ])('injected %i is an http error (retryable: %s)', async (status, retryable) => {
    standIn.failNext('POST /call', { status, body: { message: `upstream said ${status}`, statusCode: status } });
    const error = await failure(client().createCall(callInput));
    expect(error).toMatchObject({ kind: 'http', status, retryable });
    expect(error.message).toContain(`upstream said ${status}`);
  });

  it('joins the provider message list and bounds a huge non-JSON body to one line', async () => {
    standIn.failNext('POST /phone-number', { status: 400, body: { message: ['a must be x', 'b must be y'], statusCode: 400 } });
    const listError = await failure(client().createPhoneNumber({ provider: 'vapi' }));
    expect(listError.message).toContain('a must be x; b must be y');

    standIn.failNext('GET /call/:id', { status: 502, body: `<html>\n${'bad gateway '.repeat(200)}</html>` });
    const htmlError = await failure(client().getCall('x'));
    expect(htmlError.message).not.toMatch(/\n/);
    expect(htmlError.message.length).toBeLessThan(400);
  });

  it('only the first queued failure applies; the next request succeeds', async () => {
    standIn.failNext('POST /call', { status: 503 });
    await failure(client().createCall(callInput));
    await expect(client().createCall(callInput)).resolves.toMatchObject({ status: 'queued' });
  });

  it('a 2xx answer that is not the expected JSON is an invalid-response error', async () => {
    standIn.failNext('POST /call', { status: 200, body: 'OK' });
    expect(await failure(client().createCall(callInput))).toMatchObject({ kind: 'invalid-response', status: 200 });
    standIn.failNext('POST /call', { status: 201, body: { status: 'queued' } });
    expect(await failure(client().createCall(callInput))).toMatchObject({ kind: 'invalid-response', status: 201 });
  });
});

describe('vapi client: the API key never appears in an error message', () => {
  it('redacts the key and carrier secrets when the provider echoes them back', async () => {
    standIn.failNext('POST /call', { status: 400, body: { message: `bad key ${API_KEY} in Authorization: Bearer ${API_KEY}` } });
    const keyError = await failure(client().createCall(callInput));
    expect(keyError.message).toContain('[redacted]');
    expectNoSecrets(keyError);

    standIn.failNext('POST /phone-number', { status: 400, body: { message: `token ${TWILIO_TOKEN} rejected` } });
    const tokenError = await failure(
      client().createPhoneNumber({ provider: 'twilio', number: '+14155550100', twilioAccountSid: 'AC1', twilioAuthToken: TWILIO_TOKEN }),
    );
    expectNoSecrets(tokenError, TWILIO_TOKEN);
  });

  it('holds for time-outs, network errors and 401s too', async () => {
    standIn.failNext('GET /call/:id', 'timeout');
    const errors = [
      await failure(client({ timeoutMs: 100 }).getCall('c')),
      await failure(client({ baseUrl: 'http://127.0.0.1:9' }).getCall('c')),
      await failure(client({ apiKey: `${API_KEY}-x` }).getCall('c')),
    ];
    for (const error of errors) expectNoSecrets(error);
  });
});

describe('vapi client: time-outs and network failures are bounded', () => {
  it('a provider that never answers times out after timeoutMs', async () => {
    standIn.failNext('POST /call', 'timeout');
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 150 }).createCall(callInput));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', status: undefined, retryable: true });
    expect(error.message).toBe('Vapi POST /call timed out after 150 ms');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1500);
  });

  it('an injected fetch that ignores the abort signal is still bounded', async () => {
    const neverSettles = () => new Promise<Response>(() => {});
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 100, fetch: neverSettles }).getCall('c'));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a body that stalls after the headers also times out', async () => {
    const stalledBody: typeof fetch = async () =>
      new Response(new ReadableStream({ start() {} }), { status: 200, headers: { 'content-type': 'application/json' } });
    const error = await failure(client({ timeoutMs: 100, fetch: stalledBody }).getCall('c'));
    expect(error.kind).toBe('timeout');
  });

  it('an unreachable provider is a network error naming the cause', async () => {
    const error = await failure(client({ baseUrl: 'http://127.0.0.1:9' }).createCall(callInput));
    expect(error).toMatchObject({ kind: 'network', status: undefined, retryable: true });
    expect(error.message).toMatch(/^Vapi POST \/call failed: network error/);
  });

  it('uses the default base URL and time-out when none are given', async () => {
    const seen: string[] = [];
    const recorder: typeof fetch = async (url) => {
      seen.push(String(url));
      return new Response(JSON.stringify({ id: 'c1', status: 'queued' }), { status: 201 });
    };
    await createVapiClient({ apiKey: API_KEY, fetch: recorder }).getCall('c1');
    expect(seen).toEqual(['https://api.vapi.ai/call/c1']);
  });
});
