// Members (owners and operators): the list with names, roles and ownership; add, remove and role
// change through the services behind PUT/DELETE /api/tenants/{t}/members/{u}, PUT .../owners/{u}
// and PUT .../members/{u}/role, so the last-owner guard answers here as it does there. Each
// member's grants are on their own page (member-grants.tsx).
import type { Hono } from 'hono';
import { addMember, listTenantMembers, removeMember, setRole } from '../../../services/access/members';
import { grantOwnership } from '../../../services/access/ownership';
import type { ConsoleEnv } from '../env';
import { accessPath } from '../navigation';
import { accessPage, ActionForm, attempt, formFields, noticeFor, ownerOnly, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { MemberForm, MemberRef } from './form-input';
import { Options, personLabel, When } from './labels';

const PATH = '/console/:tenantId/access/members';

const ROLE_OPTIONS = [
  { value: 'member', label: 'Member' },
  { value: 'tenant-admin', label: 'Owner' },
] as const;

type Member = Awaited<ReturnType<typeof listTenantMembers>>[number];

const roleLabel = (m: Member) => (m.role === 'api-client' ? 'API client' : m.isOwner ? 'Owner' : 'Member');

function MemberRow({ c, m, outcome }: { c: ConsoleContext; m: Member; outcome?: Outcome | undefined }) {
  const who = personLabel(m.userId, m.name);
  const tenantId = c.get('viewer').tenantId;
  return (
    <tr id={`member-${m.userId}`}>
      <td data-label="Person">
        {who}
        {m.email ? <div class="help">{m.email}</div> : null}
      </td>
      <td data-label="Role">{roleLabel(m)}</td>
      <td data-label="Joined">
        <When at={m.joinedAt} />
      </td>
      <td data-label="Actions">
        <div class="row-actions">
          <a href={`${accessPath(tenantId, 'members')}/${encodeURIComponent(m.userId)}`}>
            Grants<span class="visually-hidden"> of {who}</span>
          </a>
          {m.role === 'api-client' ? null : (
            <ActionForm c={c} action="role" label={`Change the role of ${who}`}>
              <input type="hidden" name="userId" value={m.userId} />
              <div class="field">
                <label for={`role-${m.userId}`}>Role</label>
                <select id={`role-${m.userId}`} name="role">
                  <Options options={ROLE_OPTIONS} selected={m.isOwner ? 'tenant-admin' : 'member'} />
                </select>
              </div>
              <button type="submit" class="secondary">
                Change role<span class="visually-hidden"> of {who}</span>
              </button>
            </ActionForm>
          )}
          <ActionForm c={c} action="remove" label={`Remove ${who}`}>
            <input type="hidden" name="userId" value={m.userId} />
            <button type="submit" class="danger">
              Remove<span class="visually-hidden"> {who}</span>
            </button>
          </ActionForm>
        </div>
        {noticeFor(outcome, m.userId)}
      </td>
    </tr>
  );
}

function AddMember({ c, outcome }: { c: ConsoleContext; outcome?: Outcome | undefined }) {
  return (
    <ActionForm c={c} action="add" class="stack" label="Add a member">
      <div class="field">
        <label for="new-member">User id</label>
        <p class="help" id="new-member-help">
          The id your sign-in gateway knows the person by.
        </p>
        <input type="text" id="new-member" name="userId" required maxlength={200} autocomplete="off" aria-describedby="new-member-help" />
      </div>
      <div class="field">
        <label for="new-member-role">Role</label>
        <select id="new-member-role" name="role">
          <Options options={ROLE_OPTIONS} selected="member" />
        </select>
      </div>
      <div>
        <button type="submit">Add member</button>
      </div>
      {noticeFor(outcome, 'add-form')}
    </ActionForm>
  );
}

async function render(c: ConsoleContext, outcome?: Outcome) {
  const members = await listTenantMembers(c.get('deps').db, { tenantId: c.get('caller').tenantId });
  const body = (
    <>
      {strayNotice(outcome, [...members.map((m) => m.userId), 'add-form'])}
      <div class="table-scroll">
        <table class="stacked-table">
          <caption class="visually-hidden">Members</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow c={c} m={m} outcome={outcome} />
            ))}
          </tbody>
        </table>
      </div>
      <h2>Add a member</h2>
      <AddMember c={c} outcome={outcome} />
    </>
  );
  return accessPage(c, 'members', body, outcome?.status ?? 200);
}

async function act(c: ConsoleContext): Promise<Outcome> {
  const db = c.get('deps').db;
  const { tenantId, userId: actor } = c.get('caller');
  const fields = await formFields(c);
  const action = fields['action'];
  if (action === 'add') {
    return attempt('add-form', async () => {
      const { userId, role } = readInput(MemberForm, fields);
      if (role === 'tenant-admin') {
        await grantOwnership(db, { tenantId, userId, actor });
        return `${userId} is now an owner of this tenant.`;
      }
      const { created } = await addMember(db, { tenantId, userId, actor });
      return created ? `${userId} is now a member.` : `${userId} was already a member.`;
    });
  }
  return attempt(fields['userId'] ?? '', async () => {
    if (action === 'remove') {
      const { userId } = readInput(MemberRef, fields);
      await removeMember(db, { tenantId, userId, actor });
      return `${userId} is no longer a member: their access was revoked and their open requests cancelled.`;
    }
    const { userId, role } = readInput(MemberForm, fields);
    await setRole(db, { tenantId, userId, role, actor });
    return role === 'tenant-admin' ? `${userId} is now an owner.` : `${userId} is now a member without ownership.`;
  });
}

export function mountMembers(app: Hono<ConsoleEnv>) {
  app.get(PATH, ownerOnly, (c) => render(c));
  app.post(PATH, ownerOnly, async (c) => render(c, await act(c)));
}
