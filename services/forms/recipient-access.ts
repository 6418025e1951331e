// Spec rule 7: request a code (e-mailed), verify it (OPENED, a short-lived access token), then
// every recipient read and write needs that token. Whatever is wrong (unknown, expired or closed
// instance, no code, wrong code, dead code, bad access token) answers one and the same 404: the
// public API never reveals whether a token exists.
import type { Db } from '../../db/client';
import { findOutboundInstanceByToken, updateFormInstance, type FormInstanceRow } from '../../db/queries/form-instances';
import { findRecipientCode, issueRecipientCode, updateRecipientCode } from '../../db/queries/recipient-codes';
import { AppError } from '../../domain/errors';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import type { FormInstanceState } from '../../domain/forms/instance-states';
import { codeLimits, hashAccessToken, hashCode, judgeCode, MAX_ACCESS_TOKEN_LENGTH, newCode, newSalt, sameHash } from '../../domain/forms/otp';
import { startCodeCooldown } from './code-cooldown';
import { deliverCode } from './outbound-mail';
import type { OutboundDeps } from './outbound-send';
import { formDefinitionCapability as cap } from './form-definitions';

export const recipientNotFound = () => new AppError('recipient-form-not-found', 'The form was not found, or the code or access token is not valid');

/** States a code can be requested and verified in: the form is still to be answered. */
const OPEN: readonly FormInstanceState[] = ['SENT', 'OPENED'];
/** States a verified recipient can still read (a submitted form shows its answers). */
const READABLE: readonly FormInstanceState[] = ['SENT', 'OPENED', 'SUBMITTED', 'PROCESSED'];

const now = (deps: OutboundDeps) => deps.clock?.() ?? new Date();

/** Whether a recipient may reach the instance in one of `states`; an open one past expiresAt is expired. */
const reachable = (deps: OutboundDeps, row: FormInstanceRow | null, states: readonly FormInstanceState[]): row is FormInstanceRow =>
  !!row && states.includes(row.state) && !(OPEN.includes(row.state) && row.expiresAt && row.expiresAt.getTime() <= now(deps).getTime());

async function instanceByToken(deps: OutboundDeps, token: string, states: readonly FormInstanceState[]): Promise<FormInstanceRow | null> {
  const row = await findOutboundInstanceByToken(deps.db, { token });
  return reachable(deps, row, states) ? row : null;
}

/**
 * Within the cooldown of the token's last request: 429 `rate-limited` with the seconds left, for
 * any token (code-cooldown.ts), so the answer still says nothing about whether it exists. Else
 * nothing either way: a new code (and its mail) only when the instance is open; the code row's
 * upsert re-checks the cooldown atomically, so parallel requests send one mail. The mail is not
 * awaited: the answer takes as long whether the token exists or not.
 */
export async function requestCode(deps: OutboundDeps, token: string): Promise<void> {
  // Read before the cooldown starts: a code's sentAt is never later than its cooldown's start, so
  // the request that ends the cooldown always passes the row's own check too.
  const at = now(deps);
  await startCodeCooldown(deps.db, deps.settings['forms.otp.resend-cooldown-seconds'], token);
  const row = await instanceByToken(deps, token, OPEN);
  if (!row) return;
  const s = deps.settings;
  const code = newCode();
  const salt = newSalt();
  const expiresAt = new Date(at.getTime() + s['forms.otp.ttl-minutes'] * 60_000);
  const cooldownEnds = new Date(at.getTime() - s['forms.otp.resend-cooldown-seconds'] * 1000);
  const issued = await issueRecipientCode(deps.db, {
    instanceId: row.id,
    tenantId: row.tenantId,
    codeHash: hashCode(code, salt),
    codeSalt: salt,
    expiresAt,
    sentAt: at,
    cooldownEnds,
  });
  if (!issued) return;
  const title = await titleOf(deps.db, row);
  const to = { email: String(row.recipient.email ?? ''), name: typeof row.recipient.name === 'string' ? row.recipient.name : undefined };
  void deliverCode(deps, { instanceId: row.id, tenantId: row.tenantId, to, title, code, ttlMinutes: s['forms.otp.ttl-minutes'] }).catch((err: unknown) =>
    deps.logger?.warn({ instanceId: row.id, error: (err as Error).name }, 'form code e-mail not sent'),
  );
}

async function titleOf(db: Db, row: FormInstanceRow): Promise<string> {
  const version = await cap.queries.findVersion(db, { tenantId: row.tenantId, definitionId: row.definitionId, version: row.definitionVersion });
  return repairFormSchema(version?.schema).title;
}

type Verdict = { ok: true; accessToken: string; expiresAt: Date } | { ok: false };

/**
 * A right code (constant-time, within its expiry, before the attempt cap) is used up and gives an
 * access token; the instance becomes OPENED when it was SENT. A wrong one counts an attempt (the
 * count is committed, then the 404 thrown); at the cap the code is dead. Each verification
 * replaces the session before it: the latest verified access token is the one that works.
 */
export async function verifyCode(deps: OutboundDeps, token: string, code: string): Promise<{ accessToken: string; expiresAt: string }> {
  const verdict = await deps.db.transaction(async (tx): Promise<Verdict> => {
    const row = await findOutboundInstanceByToken(tx, { token, forUpdate: true });
    if (!reachable(deps, row, OPEN)) return { ok: false };
    const otp = await findRecipientCode(tx, { instanceId: row.id, forUpdate: true });
    const judged = judgeCode(otp ?? undefined, code, now(deps), codeLimits(deps.settings));
    if (judged.outcome === 'none') return { ok: false };
    await updateRecipientCode(tx, { id: otp!.id, changes: judged.changes });
    if (judged.outcome === 'wrong') return { ok: false };
    if (row.state === 'SENT') await updateFormInstance(tx, { tenantId: row.tenantId, id: row.id, version: row.version }, { state: 'OPENED' });
    return { ok: true, accessToken: judged.accessToken, expiresAt: judged.expiresAt };
  });
  if (!verdict.ok) throw recipientNotFound();
  return { accessToken: verdict.accessToken, expiresAt: verdict.expiresAt.toISOString() };
}

/** The instance a valid access token opens, in a state a recipient may read; the one 404 otherwise. */
export async function authorizedInstance(deps: OutboundDeps, token: string, accessToken: string | undefined): Promise<FormInstanceRow> {
  if (!accessToken || accessToken.length > MAX_ACCESS_TOKEN_LENGTH) throw recipientNotFound();
  const row = await instanceByToken(deps, token, READABLE);
  if (!row) throw recipientNotFound();
  const otp = await findRecipientCode(deps.db, { instanceId: row.id });
  if (!otp?.accessTokenHash || !otp.accessExpiresAt || otp.accessExpiresAt.getTime() <= now(deps).getTime()) throw recipientNotFound();
  if (!sameHash(hashAccessToken(accessToken), otp.accessTokenHash)) throw recipientNotFound();
  return row;
}
