// Calling windows and redial on the real Temporal server against the provider stand-in: a call
// asked for on a closed calendar is SCHEDULED (202) and placed when the window opens; a scheduled
// call can be cancelled; a number's window applies too; a redial waits for the window; no-answer
// twice then answered gives three linked records, one PhoneCallEnded and one phone.call.ended.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneActivities } from '../../../activities/phone';
import { workflowIdFor } from '../../../db/outbox';
import { phoneCalls } from '../../../db/schema';
import { scheduleRedial } from '../../../services/phone/call-chain';
import { phoneCallStateQuery, type PhoneCallProcessResult } from '../../../workflows/phone-call';
import { endOfCallReport } from '../../stand-ins/vapi/messages';
import { client } from '../../support/app';
import { eventually } from '../../support/ceremony';
import { createCallingCalendar, postWebhook, provisionNumber, readCall, seedPhoneTenant, usePhoneApp } from '../../support/phone';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

const MINUTE = 60_000;
const DAY = 86_400_000;
const isoWeekday = (d: Date) => ((d.getUTCDay() + 6) % 7) + 1;
/**
 * The UTC day after tomorrow, its midnight and its ISO weekday from one reading of the clock (two
 * readings could fall on either side of midnight). A calendar open on that weekday only still next
 * opens at that midnight when the run crosses midnight before the call is asked for: the day is
 * then tomorrow, the instant the same.
 */
const dayAfterTomorrow = () => {
  const opening = new Date(Math.floor(Date.now() / DAY) * DAY + 2 * DAY);
  return { opening, weekday: isoWeekday(opening) };
};

describe('calling windows and redial (real Temporal server, outbox dispatcher)', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let worker: TestWorker;
  let dispatcher: ReturnType<typeof testDispatcher>;
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let opensAt: Date;

  beforeAll(async () => {
    worker = await startTestWorker(createPhoneActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    dispatcher = testDispatcher(ctx, worker, ['PHONE']);
    await dispatcher.start();
    t = await seedPhoneTenant(ctx);
    const numberId = (await provisionNumber(ctx, t.writer)).providerNumberId;
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-open', defaultPhoneNumberId: numberId });
    // The window opens at the next whole minute but one (between one and two minutes from now) and
    // runs to the end of the day after: that minute's weekday and the next only, so a window opening
    // at midnight is not open now, and one opening just before midnight stays open past it.
    opensAt = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 2 * MINUTE);
    await createCallingCalendar(ctx, t, { code: 'CALLS', key: 'outbound-calls', opensAt, days: [isoWeekday(opensAt)] });
    const dayAfter = { dayOfWeek: isoWeekday(new Date(opensAt.getTime() + DAY)), startTime: '00:00', endTime: '24:00' };
    expect((await api.post('/api/business-calendars/CALLS/locations/UTC/business-hours', t.asOwner, dayAfter)).status).toBe(201);
    expect((await api.put('/api/phone/assistants/asst-windowed/calling-policy', t.writer, { callingCalendarKey: 'outbound-calls' })).status).toBe(200);
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
  });

  const dialsOf = (number: string) =>
    ctx.standIn.requests.filter((r) => r.route === 'POST /call' && (r.body as { customer?: { number?: string } })?.customer?.number === number);
  const handleOf = (callId: string) => worker.client.workflow.getHandle(workflowIdFor('PHONE', t.id, callId));

  it('outside the window: 202 SCHEDULED at the opening, nobody dialled until then; placed when it opens', async () => {
    const customer = '+14155550161';
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: customer, assistantId: 'asst-windowed' });
    expect(r.status, r.text).toBe(202);
    expect(r.json).toMatchObject({ status: 'SCHEDULED', scheduledFor: opensAt.toISOString(), callingCalendarKey: 'outbound-calls', providerCallId: null });
    const handle = handleOf(r.json.id);
    await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'scheduled');
    expect(dialsOf(customer)).toEqual([]);
    // Wait on the recorded state: the process dials when the window opens.
    const ringing = await eventually(() => readCall(ctx, r.json.id), (c) => c?.status === 'RINGING', 200_000);
    expect(dialsOf(customer)).toHaveLength(1);
    expect(Date.now()).toBeGreaterThanOrEqual(opensAt.getTime());
    await postWebhook(ctx, endOfCallReport({ callId: ringing!.providerCallId!, endedReason: 'customer-ended-call' }));
    expect(await handle.result()).toMatchObject({ status: 'ENDED', settledBy: 'signal' });
  }, 240_000);

  it('a scheduled call cancelled: CANCELLED, its process ends, nobody dialled; cancelling again is 409', async () => {
    const customer = '+14155550162';
    // A calendar open only the day after tomorrow: the call waits long enough to be cancelled.
    const later = dayAfterTomorrow().weekday;
    await createCallingCalendar(ctx, t, { code: 'LATER', key: 'later-calls', opensAt: new Date(0), days: [later] });
    expect((await api.put('/api/phone/assistants/asst-later/calling-policy', t.writer, { callingCalendarKey: 'later-calls' })).status).toBe(200);
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: customer, assistantId: 'asst-later' });
    expect(r.status, r.text).toBe(202);
    const handle = handleOf(r.json.id);
    await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'scheduled');
    const cancelled = await api.post(`/api/phone-calls/${r.json.id}/cancel`, t.writer);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.status).toBe('CANCELLED');
    expect(await handle.result()).toMatchObject({ status: 'CANCELLED', settledBy: 'cancelled' });
    expect((await api.post(`/api/phone-calls/${r.json.id}/cancel`, t.writer)).json.code).toBe('phone-call-not-scheduled');
    expect(dialsOf(customer)).toEqual([]);
  });

  it("the callee's location: its hours alone are the window (SCHEDULED for its opening while another location is open); an unknown location is 422", async () => {
    // One calendar, two locations: HERE open around the clock, THERE only the day after tomorrow.
    const { opening: thereOpens, weekday: later } = dayAfterTomorrow();
    await createCallingCalendar(ctx, t, { code: 'REGIONS', key: 'regional-calls', opensAt: new Date(0) });
    expect((await api.post('/api/business-calendars/REGIONS/locations', t.asOwner, { locationCode: 'THERE', name: 'There', timezone: 'UTC' })).status).toBe(201);
    const hours = await api.post('/api/business-calendars/REGIONS/locations/THERE/business-hours', t.asOwner, { dayOfWeek: later, startTime: '00:00', endTime: '24:00' });
    expect(hours.status, hours.text).toBe(201);
    expect((await api.put('/api/phone/assistants/asst-regions/calling-policy', t.writer, { callingCalendarKey: 'regional-calls' })).status).toBe(200);

    const there = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550164', assistantId: 'asst-regions', calleeLocationCode: 'THERE' });
    expect(there.status, there.text).toBe(202);
    expect(there.json).toMatchObject({ status: 'SCHEDULED', scheduledFor: thereOpens.toISOString(), calleeLocationCode: 'THERE' });
    const here = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550165', assistantId: 'asst-regions', calleeLocationCode: 'UTC' });
    expect(here.status, here.text).toBe(201);
    expect(here.json).toMatchObject({ status: 'RINGING', calleeLocationCode: 'UTC' });
    const anyLocation = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550166', assistantId: 'asst-regions' });
    expect(anyLocation.status, anyLocation.text).toBe(201);
    const unknown = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550167', assistantId: 'asst-regions', calleeLocationCode: 'NOWHERE' });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.json.code).toBe('unknown-callee-location');
    expect(dialsOf('+14155550164')).toEqual([]);
    expect(dialsOf('+14155550167')).toEqual([]);
    // The scheduled call's process waits two days: end it.
    await eventually(() => handleOf(there.json.id).query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'scheduled');
    expect((await api.post(`/api/phone-calls/${there.json.id}/cancel`, t.writer)).status).toBe(200);
  });

  it("a phone number's calling window applies to its calls; the assistant's wins over it", async () => {
    const { opening, weekday: later } = dayAfterTomorrow();
    await createCallingCalendar(ctx, t, { code: 'LINE', key: 'line-calls', opensAt: new Date(0), days: [later] });
    await createCallingCalendar(ctx, t, { code: 'ANYTIME', key: 'anytime-calls', opensAt: new Date(0) });
    const line = await provisionNumber(ctx, t.writer);
    expect((await api.put(`/api/phone-numbers/${line.id}/calling-policy`, t.writer, { callingCalendarKey: 'line-calls' })).status).toBe(200);
    expect((await api.put('/api/phone/assistants/asst-anytime/calling-policy', t.writer, { callingCalendarKey: 'anytime-calls' })).status).toBe(200);

    const byLine = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550169', assistantId: 'asst-plain', phoneNumberId: line.providerNumberId });
    expect(byLine.status, byLine.text).toBe(202);
    expect(byLine.json).toMatchObject({ status: 'SCHEDULED', scheduledFor: opening.toISOString(), callingCalendarKey: 'line-calls' });
    const byAssistant = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550170', assistantId: 'asst-anytime', phoneNumberId: line.providerNumberId });
    expect(byAssistant.status, byAssistant.text).toBe(201);
    expect(byAssistant.json).toMatchObject({ status: 'RINGING', callingCalendarKey: 'anytime-calls' });
    expect(dialsOf('+14155550169')).toEqual([]);
    await eventually(() => handleOf(byLine.json.id).query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'scheduled');
    expect((await api.post(`/api/phone-calls/${byLine.json.id}/cancel`, t.writer)).status).toBe(200);
  });

  it("a redial whose backoff ends while the calling window is closed is scheduled at the window's next opening, as the chain's next attempt", async () => {
    // A calendar open only the day after tomorrow (UTC): the five-minute backoff ends while it is closed.
    const { opening, weekday: later } = dayAfterTomorrow();
    await createCallingCalendar(ctx, t, { code: 'REDIALS', key: 'redial-window', opensAt: new Date(0), days: [later] });
    // The first attempt, ended unanswered (written directly: its own placement is not what is tested).
    const id = randomUUID();
    await ctx.db.db.insert(phoneCalls).values({
      id,
      tenantId: t.id,
      direction: 'OUTBOUND',
      status: 'ENDED',
      endedReason: 'customer-did-not-answer',
      providerCallId: `call-${id}`,
      phoneNumberId: 'pn-seeded',
      assistantId: 'asst-seeded',
      customerNumber: '+14155550168',
      businessKey: id,
      initiatedBy: 'test',
      callingCalendarKey: 'redial-window',
      redial: { maxAttempts: 2, backoffMinutes: 5, on: ['no-answer'] },
    });
    const next = await scheduleRedial(ctx.db.db, { tenantId: t.id, callId: id });
    expect(next).toMatchObject({ attempt: 2, scheduledFor: opening.getTime() });
    expect(await readCall(ctx, next!.callId)).toMatchObject({ status: 'SCHEDULED', firstCallId: id, attempt: 2, businessKey: id, callingCalendarKey: 'redial-window' });
    // A retried step finds the attempt it wrote.
    expect((await scheduleRedial(ctx.db.db, { tenantId: t.id, callId: id }))!.callId).toBe(next!.callId);
    expect(dialsOf('+14155550168')).toEqual([]);
  });

  it('no-answer twice then answered: three linked records, one PhoneCallEnded, one phone.call.ended', async () => {
    const customer = '+14155550163';
    await ctx.db.sql`insert into webhook_endpoints (tenant_id, url, event_types, created_by) values (${t.id}, 'https://hooks.example.test/phone', ${['phone.call.ended']}, 'test')`;
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: customer, redial: { maxAttempts: 3, backoffMinutes: 0, on: ['no-answer', 'busy'] } });
    expect(r.status, r.text).toBe(201);
    const first = r.json as { id: string; providerCallId: string };
    const handle = handleOf(first.id);
    const attemptRinging = async (attempt: number) => {
      const rows = await eventually(
        () => ctx.db.sql`select id, status, provider_call_id, first_call_id from phone_calls where business_key = ${first.id} and attempt = ${attempt}`,
        (rs) => rs[0]?.status === 'RINGING',
      );
      return rows[0]! as unknown as { id: string; provider_call_id: string; first_call_id: string | null };
    };
    await eventually(() => handle.query(phoneCallStateQuery).catch(() => null), (s) => s?.phase === 'waiting');
    await postWebhook(ctx, endOfCallReport({ callId: first.providerCallId, endedReason: 'customer-did-not-answer' }));
    const second = await attemptRinging(2);
    expect(second.first_call_id).toBe(first.id);
    await postWebhook(ctx, endOfCallReport({ callId: second.provider_call_id, endedReason: 'customer-did-not-answer' }));
    const third = await attemptRinging(3);
    await postWebhook(ctx, endOfCallReport({ callId: third.provider_call_id, endedReason: 'customer-ended-call', transcript: 'hello' }));

    const result: PhoneCallProcessResult = await handle.result();
    expect(result).toMatchObject({ status: 'ENDED', settledBy: 'signal', attempts: 3, finalCallId: third.id });
    expect(dialsOf(customer)).toHaveLength(3);
    const chain = await ctx.db.sql`select id, attempt, status, ended_reason, first_call_id, process_status from phone_calls where business_key = ${first.id} order by attempt`;
    expect(chain.map((c) => [c.attempt, c.status, c.ended_reason, c.first_call_id, c.process_status])).toEqual([
      [1, 'ENDED', 'customer-did-not-answer', null, 'CLOSED'],
      [2, 'ENDED', 'customer-did-not-answer', first.id, 'CLOSED'],
      [3, 'ENDED', 'customer-ended-call', first.id, 'CLOSED'],
    ]);
    const signals = await ctx.db.sql`select signal_name, signal_args from outbox where business_key = ${first.id} and verb = 'signal' order by seq`;
    expect(signals.map((s) => s.signal_name)).toEqual(['PhoneCallAttemptEnded', 'PhoneCallAttemptEnded', 'PhoneCallEnded']);
    expect((signals[2]!.signal_args as Array<{ callId: string }>)[0]!.callId).toBe(third.id);
    const events = await ctx.db.sql`select data from webhook_events where tenant_id = ${t.id} and type = 'phone.call.ended' and data->>'firstCallId' = ${first.id}`;
    expect(events.map((e) => (e.data as { callId: string; attempt: number }).attempt)).toEqual([3]);
    // The API shows the chain: every attempt names the first.
    const attempt2 = (await api.get(`/api/phone-calls/${second.id}`, t.reader)).json;
    expect(attempt2).toMatchObject({ firstCallId: first.id, attempt: 2, redial: { maxAttempts: 3 } });
  });
});
