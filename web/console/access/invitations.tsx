// Invitations (owners and operators): create one for a role (and, optionally, an e-mail address
// to remember it by), its link shown this once with a copy button, revoke an unused one, and every
// invitation's status. The services are the ones behind /api/tenants/{t}/invitations[/{id}]; only
// a token's hash is stored, so a link cannot be shown again.
import type { Hono } from 'hono';
import type { InvitationRow } from '../../../db/queries/invitations';
import { createInvitation, listTenantInvitations, revokeInvitation } from '../../../services/access/invitations';
import type { ConsoleEnv } from '../env';
import { accessPage, ActionForm, attempt, formFields, noticeFor, ownerOnly, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { InvitationForm, InvitationRef } from './form-input';
import { invitationLink } from './invitation-accept';
import { Options, When } from './labels';

const PATH = '/console/:tenantId/access/invitations';

const ROLE_LABEL = { member: 'Member', 'tenant-admin': 'Owner' } as const;
const STATUS_LABEL = { PENDING: 'Open', ACCEPTED: 'Accepted', REVOKED: 'Revoked', EXPIRED: 'Expired' } as const;

/** As GET /api/tenants/{t}/invitations says it. */
const statusOf = (r: InvitationRow, now: Date): keyof typeof STATUS_LABEL =>
  r.acceptedAt ? 'ACCEPTED' : r.revokedAt ? 'REVOKED' : r.expiresAt <= now ? 'EXPIRED' : 'PENDING';

/** A just-created invitation: its link, this once. */
interface Created {
  link: string;
  role: InvitationRow['role'];
  expiresAt: Date;
}

function CreatedLink({ created }: { created: Created }) {
  return (
    <div class="notice notice-ok" role="status" tabindex={-1}>
      <p>
        The invitation is created. Copy its link now: it is shown only this once. Whoever opens it (signed in) joins this tenant as{' '}
        {ROLE_LABEL[created.role].toLowerCase()}, once, until <When at={created.expiresAt} />.
      </p>
      <div class="copy-row">
        <label for="invitation-link" class="visually-hidden">
          Invitation link
        </label>
        <input type="text" id="invitation-link" value={created.link} readonly />
        <button type="button" class="secondary" data-copy="invitation-link" data-copy-status="copy-status" hidden>
          Copy link
        </button>
      </div>
      <p id="copy-status" role="status" aria-live="polite"></p>
    </div>
  );
}

async function render(c: ConsoleContext, outcome?: Outcome, created?: Created) {
  const { db, clock } = c.get('deps');
  const now = clock?.() ?? new Date();
  const rows = await listTenantInvitations(db, { tenantId: c.get('caller').tenantId });
  const body = (
    <>
      <h2>Invite someone</h2>
      <ActionForm c={c} action="create" class="stack" label="Create an invitation">
        <div class="field">
          <label for="invitation-role">Role</label>
          <select id="invitation-role" name="role">
            <Options options={[{ value: 'member', label: 'Member' }, { value: 'tenant-admin', label: 'Owner' }]} selected="member" />
          </select>
        </div>
        <div class="field">
          <label for="invitation-email">E-mail address (optional, to remember whom it is for)</label>
          <input type="email" id="invitation-email" name="email" maxlength={300} autocomplete="off" />
        </div>
        <div>
          <button type="submit">Create invitation</button>
        </div>
        {created ? <CreatedLink created={created} /> : noticeFor(outcome, 'create-form')}
      </ActionForm>
      <h2>Invitations</h2>
      {strayNotice(outcome, [...rows.map((r) => r.id), 'create-form'])}
      {rows.length === 0 ? (
        <p class="empty-state">No invitation has been created yet.</p>
      ) : (
        <div class="table-scroll">
          <table class="stacked-table">
            <caption class="visually-hidden">Invitations</caption>
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const status = statusOf(r, now);
                return (
                  <tr id={`invitation-${r.id}`}>
                    <td data-label="For">{r.email ?? 'Anyone with the link'}</td>
                    <td data-label="Role">{ROLE_LABEL[r.role]}</td>
                    <td data-label="Status">
                      <span class="status">{STATUS_LABEL[status]}</span>
                      {r.acceptedBy ? <div class="help">by {r.acceptedBy}</div> : null}
                    </td>
                    <td data-label="Created">
                      <When at={r.createdAt} />
                    </td>
                    <td data-label="Expires">
                      <When at={r.expiresAt} />
                    </td>
                    <td data-label="Actions">
                      {status === 'PENDING' ? (
                        <ActionForm c={c} action="revoke" label={`Revoke the invitation for ${r.email ?? 'anyone with the link'}`}>
                          <input type="hidden" name="id" value={r.id} />
                          <button type="submit" class="danger">
                            Revoke<span class="visually-hidden"> the invitation for {r.email ?? 'anyone with the link'}</span>
                          </button>
                        </ActionForm>
                      ) : (
                        '—'
                      )}
                      {noticeFor(outcome, r.id)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
  return accessPage(c, 'invitations', body, outcome?.status ?? 200);
}

async function post(c: ConsoleContext) {
  const deps = c.get('deps');
  const { tenantId, userId: actor } = c.get('caller');
  const fields = await formFields(c);
  if (fields['action'] === 'revoke') {
    const outcome = await attempt(fields['id'] ?? '', async () => {
      const { id } = readInput(InvitationRef, fields);
      await revokeInvitation(deps.db, { tenantId, id });
      return 'The invitation is revoked: its link no longer works.';
    });
    return render(c, outcome);
  }
  let created: Created | undefined;
  const outcome = await attempt('create-form', async () => {
    const { role, email } = readInput(InvitationForm, fields);
    const { invitation, token } = await createInvitation(deps, { tenantId, email: email ?? null, role, actor, now: deps.clock?.() ?? new Date() });
    created = { link: invitationLink(c, token), role: invitation.role, expiresAt: invitation.expiresAt };
    return 'The invitation is created.';
  });
  return render(c, outcome, created);
}

export function mountInvitations(app: Hono<ConsoleEnv>) {
  app.get(PATH, ownerOnly, (c) => render(c));
  app.post(PATH, ownerOnly, post);
}
