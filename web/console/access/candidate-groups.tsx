// Candidate Groups (owners and operators): the tenant's role groups with their members; create a
// group, add a member of the tenant to one, remove someone from one. The services are the ones
// behind /api/tenants/{t}/candidate-groups[/{g}/members[/{u}]].
import type { Hono } from 'hono';
import { addToRoleGroup, createRoleGroup, listCandidateGroups, listRoleGroupMembers, removeFromRoleGroup } from '../../../services/access/groups';
import { listTenantMembers } from '../../../services/access/members';
import type { ConsoleEnv } from '../env';
import { accessPage, ActionForm, attempt, formFields, noticeFor, ownerOnly, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { GroupForm, GroupMemberForm } from './form-input';
import { Options, personLabel } from './labels';

const PATH = '/console/:tenantId/access/candidate-groups';

async function load(c: ConsoleContext) {
  const db = c.get('deps').db;
  const tenantId = c.get('caller').tenantId;
  const [groups, members] = await Promise.all([listCandidateGroups(db, { tenantId }), listTenantMembers(db, { tenantId })]);
  const withMembers = await Promise.all(groups.map(async (g) => ({ ...g, members: await listRoleGroupMembers(db, { tenantId, name: g.name }) })));
  return { groups: withMembers, members: members.filter((m) => m.role !== 'api-client') };
}

type Data = Awaited<ReturnType<typeof load>>;

function Group({ c, g, members, outcome }: { c: ConsoleContext; g: Data['groups'][number]; members: Data['members']; outcome?: Outcome | undefined }) {
  const inGroup = new Set(g.members.map((m) => m.userId));
  const candidates = members.filter((m) => !inGroup.has(m.userId));
  const headingId = `group-${g.name}`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{g.name}</h3>
      {g.description ? <p>{g.description}</p> : null}
      {noticeFor(outcome, `group:${g.name}`)}
      {g.members.length === 0 ? (
        <p class="empty-state">Nobody is in this group yet.</p>
      ) : (
        <ul class="grants">
          {g.members.map((m) => (
            <li>
              <div class="row-actions">
                <span>{personLabel(m.userId, m.name)}</span>
                <ActionForm c={c} action="remove-member" label={`Remove ${m.userId} from ${g.name}`}>
                  <input type="hidden" name="group" value={g.name} />
                  <input type="hidden" name="userId" value={m.userId} />
                  <button type="submit" class="secondary">
                    Remove<span class="visually-hidden"> {personLabel(m.userId, m.name)} from {g.name}</span>
                  </button>
                </ActionForm>
              </div>
              {noticeFor(outcome, `group:${g.name}:${m.userId}`)}
            </li>
          ))}
        </ul>
      )}
      {candidates.length === 0 ? null : (
        <ActionForm c={c} action="add-member" label={`Add a member to ${g.name}`}>
          <input type="hidden" name="group" value={g.name} />
          <div class="field">
            <label for={`add-${g.name}`}>Add to {g.name}</label>
            <select id={`add-${g.name}`} name="userId">
              <Options options={candidates.map((m) => ({ value: m.userId, label: personLabel(m.userId, m.name) }))} />
            </select>
          </div>
          <button type="submit">
            Add<span class="visually-hidden"> to {g.name}</span>
          </button>
        </ActionForm>
      )}
    </section>
  );
}

async function render(c: ConsoleContext, outcome?: Outcome) {
  const { groups, members } = await load(c);
  const keys = ['create-form', ...groups.flatMap((g) => [`group:${g.name}`, ...g.members.map((m) => `group:${g.name}:${m.userId}`)])];
  const body = (
    <>
      {strayNotice(outcome, keys)}
      {groups.length === 0 ? <p class="empty-state">This tenant has no candidate groups yet.</p> : null}
      {groups.map((g) => (
        <Group c={c} g={g} members={members} outcome={outcome} />
      ))}
      <h2>Create a group</h2>
      <ActionForm c={c} action="create" class="stack" label="Create a group">
        <div class="field">
          <label for="group-name">Name</label>
          <p class="help" id="group-name-help">
            Lower-case letters, digits, - and _ (for example: claims-reviewers).
          </p>
          <input type="text" id="group-name" name="name" required maxlength={63} autocomplete="off" aria-describedby="group-name-help" />
        </div>
        <div class="field">
          <label for="group-description">Description (optional)</label>
          <input type="text" id="group-description" name="description" maxlength={500} />
        </div>
        <div>
          <button type="submit">Create group</button>
        </div>
        {noticeFor(outcome, 'create-form')}
      </ActionForm>
    </>
  );
  return accessPage(c, 'candidate-groups', body, outcome?.status ?? 200);
}

async function act(c: ConsoleContext): Promise<Outcome> {
  const db = c.get('deps').db;
  const tenantId = c.get('caller').tenantId;
  const fields = await formFields(c);
  switch (fields['action']) {
    case 'create':
      return attempt('create-form', async () => {
        const { name, description } = readInput(GroupForm, fields);
        await createRoleGroup(db, { tenantId, name, description: description ?? null });
        return `The group ${name} is created.`;
      });
    case 'remove-member':
      return attempt(`group:${fields['group']}:${fields['userId']}`, async () => {
        const { group, userId } = readInput(GroupMemberForm, fields);
        await removeFromRoleGroup(db, { tenantId, name: group, userId });
        return `${userId} is no longer in ${group}.`;
      });
    default:
      return attempt(`group:${fields['group']}`, async () => {
        const { group, userId } = readInput(GroupMemberForm, fields);
        await addToRoleGroup(db, { tenantId, name: group, userId });
        return `${userId} is now in ${group}.`;
      });
  }
}

export function mountCandidateGroups(app: Hono<ConsoleEnv>) {
  app.get(PATH, ownerOnly, (c) => render(c));
  app.post(PATH, ownerOnly, async (c) => render(c, await act(c)));
}
