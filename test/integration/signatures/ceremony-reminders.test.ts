// Reminders are a durable timer in the ceremony: with a short interval (0.001 h = 3.6 s) an armed
// recipient who has not signed is mailed again, audited `reminded`; a recipient not armed is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/app';
import { CAMPAIGNS, eventually, publishedDefinition, seedSignaturesTenant, startCeremonyWorld, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { mailTo, waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';

describe('ceremony reminders', () => {
  const ctx = useCeremonyApp({ 'signatures.reminder-interval-hours': 0.001 });
  const api = client(ctx);
  let world: CeremonyWorld;

  beforeAll(async () => {
    world = await startCeremonyWorld(ctx);
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('mails armed recipients on every interval until they sign; waiting recipients get nothing', async () => {
    const t = await seedSignaturesTenant(ctx);
    const definitionId = await publishedDefinition(ctx, t.as('editor'));
    const emp = newAddress('emp');
    const mgr = newAddress('mgr');
    const r = await api.post(CAMPAIGNS, t.as('editor'), {
      definitionId,
      recipients: [
        { signerId: 'employee', name: 'Eva Employee', email: emp },
        { signerId: 'manager', name: 'Mara Manager', email: mgr },
      ],
      variables: { salary: '1' },
    });
    expect(r.status, r.text).toBe(201);
    const mails = await waitForMail(emp, 3);
    expect(mails[0]!.subject).toMatch(/^Please sign/);
    expect(mails[1]!.subject).toMatch(/^Reminder/);
    expect(await mailTo(mgr)).toEqual([]);
    const d = await eventually(
      async () => (await api.get(`${CAMPAIGNS}/${r.json.id}`, t.asOwner)).json,
      (x) => x.events.filter((e: { action: string }) => e.action === 'reminded').length >= 2,
    );
    expect(d.events.filter((e: { action: string; signerId: string }) => e.action === 'reminded').every((e: { signerId: string }) => e.signerId === 'employee')).toBe(true);
    expect(d.recipients[0].lastRemindedAt).not.toBeNull();
  });
});
