// One member's grants (owners and operators): each grant with its granted and effective level and
// its end, revoke, and a grant form over the tenant's ACTIVE subscriptions. The services are the
// ones behind GET/PUT/DELETE /api/tenants/{t}/users/{u}/capabilities[/{code}].
import type { Hono } from 'hono';
import { USER_ID } from '../../../api/openapi';
import { AppError } from '../../../domain/errors';
import { grantCapability, listUserGrants, revokeGrant } from '../../../services/access/grants';
import { listTenantMembers } from '../../../services/access/members';
import { listTenantSubscriptions } from '../../../services/access/subscriptions';
import type { ConsoleEnv } from '../env';
import { accessPage, ActionForm, attempt, formFields, noticeFor, ownerOnly, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { GrantForm, RevokeGrantForm } from './form-input';
import { LEVEL_LABEL, LEVEL_OPTIONS, Options, personLabel, When } from './labels';

const PATH = '/console/:tenantId/access/members/:userId';

/** The member of the path: 404 when the id is malformed or not a member (another tenant's alike). */
async function memberOf(c: ConsoleContext) {
  const userId = c.req.param('userId') ?? '';
  const members = USER_ID.test(userId) ? await listTenantMembers(c.get('deps').db, { tenantId: c.get('caller').tenantId }) : [];
  const member = members.find((m) => m.userId === userId);
  if (!member) throw new AppError('member-not-found', 'Member was not found');
  return member;
}

async function render(c: ConsoleContext, outcome?: Outcome) {
  const db = c.get('deps').db;
  const tenantId = c.get('caller').tenantId;
  const member = await memberOf(c);
  const [{ grants }, subscriptions] = await Promise.all([listUserGrants(db, { tenantId, userId: member.userId }), listTenantSubscriptions(db, { tenantId })]);
  const who = personLabel(member.userId, member.name);
  const active = subscriptions.filter((s) => s.status === 'ACTIVE');
  const body = (
    <>
      <p>
        <a href={`/console/${encodeURIComponent(tenantId)}/access/members`}>Back to all members</a>
      </p>
      {strayNotice(outcome, [...grants.map((g) => g.capabilityCode), 'grant-form'])}
      {grants.length === 0 ? (
        <p class="empty-state">{who} has no grants in this tenant.</p>
      ) : (
        <div class="table-scroll">
          <table class="stacked-table">
            <caption class="visually-hidden">Grants of {who}</caption>
            <thead>
              <tr>
                <th scope="col">Capability</th>
                <th scope="col">Level</th>
                <th scope="col">Effective level</th>
                <th scope="col">Ends</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {grants.map((g) => (
                <tr id={`grant-${g.capabilityCode}`}>
                  <td data-label="Capability">{g.capabilityName}</td>
                  <td data-label="Level">{LEVEL_LABEL[g.level]}</td>
                  <td data-label="Effective level">{g.subscription === 'ACTIVE' ? LEVEL_LABEL[g.level] : 'None: the subscription is not active'}</td>
                  <td data-label="Ends">{g.expiresAt ? <When at={g.expiresAt} /> : 'Never'}</td>
                  <td data-label="Actions">
                    <ActionForm c={c} action="revoke" label={`Revoke ${g.capabilityName} from ${who}`}>
                      <input type="hidden" name="capabilityCode" value={g.capabilityCode} />
                      <button type="submit" class="danger">
                        Revoke<span class="visually-hidden"> {g.capabilityName}</span>
                      </button>
                    </ActionForm>
                    {noticeFor(outcome, g.capabilityCode)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Grant access</h2>
      {active.length === 0 ? (
        <p class="empty-state">This tenant is not subscribed to any capability, so there is nothing to grant.</p>
      ) : (
        <ActionForm c={c} action="grant" class="stack" label={`Grant access to ${who}`}>
          <div class="field">
            <label for="grant-capability">Capability</label>
            <select id="grant-capability" name="capabilityCode">
              <Options options={active.map((s) => ({ value: s.capabilityCode, label: s.capabilityName }))} />
            </select>
          </div>
          <div class="field">
            <label for="grant-level">Level</label>
            <select id="grant-level" name="level">
              <Options options={LEVEL_OPTIONS} />
            </select>
          </div>
          <div>
            <button type="submit">Grant</button>
          </div>
          {noticeFor(outcome, 'grant-form')}
        </ActionForm>
      )}
    </>
  );
  return accessPage(c, 'members', body, outcome?.status ?? 200, `Grants of ${who}`);
}

async function act(c: ConsoleContext): Promise<Outcome> {
  const { db, clock } = c.get('deps');
  const { tenantId, userId: actor } = c.get('caller');
  const userId = (await memberOf(c)).userId;
  const fields = await formFields(c);
  if (fields['action'] === 'revoke') {
    return attempt(fields['capabilityCode'] ?? '', async () => {
      const { capabilityCode: code } = readInput(RevokeGrantForm, fields);
      await revokeGrant(db, { tenantId, userId, code, actor });
      return `The grant on ${code} is revoked.`;
    });
  }
  return attempt('grant-form', async () => {
    const { capabilityCode: code, level } = readInput(GrantForm, fields);
    const { capability } = await grantCapability(db, { tenantId, userId, code, level, actor, expiresAt: null, now: clock?.() });
    return `${userId} now has ${LEVEL_LABEL[level].toLowerCase()} access to ${capability.name}.`;
  });
}

export function mountMemberGrants(app: Hono<ConsoleEnv>) {
  app.get(PATH, ownerOnly, (c) => render(c));
  app.post(PATH, ownerOnly, async (c) => render(c, await act(c)));
}
