// The redial rule exists twice: domain/phone/redial.ts (the process and the API) and SQL function
// phone_call_redials (the settling statement and the phone.call.ended trigger, migration 0028).
// They must agree on every combination, or PhoneCallEnded and the process would disagree.
import { describe, expect, it } from 'vitest';
import { BUSY_REASONS, NO_ANSWER_REASONS, redialFollows, type RedialPolicy } from '../../../domain/phone/redial';
import { useTestApp } from '../../support/app';

describe('redial rule: TypeScript and SQL agree', () => {
  const ctx = useTestApp();

  it('on every status, endedReason, attempt and policy', async () => {
    const statuses = ['ENDED', 'FAILED', 'RINGING'];
    const reasons = [...NO_ANSWER_REASONS, ...BUSY_REASONS, 'customer-ended-call', 'voicemail', 'pipeline-error-openai-llm-failed', null];
    const policies: Array<RedialPolicy | null> = [
      null,
      { maxAttempts: 3, backoffMinutes: 0, on: ['no-answer'] },
      { maxAttempts: 3, backoffMinutes: 0, on: ['busy'] },
      { maxAttempts: 2, backoffMinutes: 5, on: ['failed'] },
      { maxAttempts: 1, backoffMinutes: 5, on: ['no-answer', 'busy', 'failed'] },
      { maxAttempts: 4, backoffMinutes: 5, on: ['no-answer', 'busy', 'failed'] },
    ];
    const cases = statuses.flatMap((status) =>
      reasons.flatMap((endedReason) => [1, 2, 3, 4].flatMap((attempt) => policies.map((redial) => ({ status, endedReason, attempt, redial })))),
    );
    const rows = await ctx.db.sql`
      select (c->>'i')::int as i, phone_call_redials(c->>'status', c->>'endedReason', (c->>'attempt')::int, c->'redial') as redials
      from jsonb_array_elements(${JSON.stringify(cases.map((c, i) => ({ ...c, i })))}::jsonb) as c`;
    const sql = rows.map((r) => r.redials as boolean);
    expect(sql).toHaveLength(cases.length);
    const ts = cases.map((c) => redialFollows(c));
    expect(sql).toEqual(ts);
    expect(ts.filter(Boolean).length).toBeGreaterThan(10);
  });
});
