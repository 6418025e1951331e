// Approve Requests (owners and operators): the queue of PENDING requests; approve, with a level
// that may differ from the one asked for, or deny with a note. The services are the ones behind
// POST /api/org/access-requests/{id}/approve and /deny, so their refusals (self-approval, no
// longer pending, not subscribed) are the API's, shown beside the row.
import type { Hono } from 'hono';
import { approveAccessRequest, denyAccessRequest, listAccessRequestsWithNames } from '../../../services/access/access-requests';
import type { ConsoleEnv } from '../env';
import { accessPage, ActionForm, attempt, formFields, noticeFor, ownerOnly, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { ApproveForm, DenyForm } from './form-input';
import { LEVEL_LABEL, LEVEL_OPTIONS, Options, personLabel, When } from './labels';

const PATH = '/console/:tenantId/access/approve-requests';

type Row = Awaited<ReturnType<typeof listAccessRequestsWithNames>>[number];

function RequestRow({ c, r, outcome }: { c: ConsoleContext; r: Row; outcome?: Outcome | undefined }) {
  const who = personLabel(r.userId, r.userName);
  const what = r.capabilityName ?? r.capabilityCode;
  return (
    <tr id={`request-${r.id}`}>
      <td data-label="Requester">{who}</td>
      <td data-label="Capability">{what}</td>
      <td data-label="Level asked">{LEVEL_LABEL[r.requestedLevel]}</td>
      <td data-label="Note">{r.note ?? '—'}</td>
      <td data-label="Asked">
        <When at={r.createdAt} />
      </td>
      <td data-label="Decision">
        <div class="row-actions">
          <ActionForm c={c} action="approve" label={`Approve ${who}'s request for ${what}`}>
            <input type="hidden" name="id" value={r.id} />
            <div class="field">
              <label for={`level-${r.id}`}>Level to grant</label>
              <select id={`level-${r.id}`} name="level">
                <Options options={LEVEL_OPTIONS} selected={r.requestedLevel} />
              </select>
            </div>
            <button type="submit">
              Approve<span class="visually-hidden"> {who}'s request for {what}</span>
            </button>
          </ActionForm>
          <ActionForm c={c} action="deny" label={`Deny ${who}'s request for ${what}`}>
            <input type="hidden" name="id" value={r.id} />
            <div class="field">
              <label for={`note-${r.id}`}>Note (optional)</label>
              <input type="text" id={`note-${r.id}`} name="decisionNote" maxlength={2000} />
            </div>
            <button type="submit" class="danger">
              Deny<span class="visually-hidden"> {who}'s request for {what}</span>
            </button>
          </ActionForm>
        </div>
        {noticeFor(outcome, r.id)}
      </td>
    </tr>
  );
}

async function render(c: ConsoleContext, outcome?: Outcome) {
  const { db, settings } = c.get('deps');
  const rows = await listAccessRequestsWithNames(db, {
    tenantId: c.get('caller').tenantId,
    status: 'PENDING',
    requestTtlDays: settings['access.request-ttl-days'],
  });
  const body = (
    <>
      {strayNotice(outcome, rows.map((r) => r.id))}
      {rows.length === 0 ? (
        <p class="empty-state">No request is waiting for a decision.</p>
      ) : (
        <div class="table-scroll">
          <table class="stacked-table">
            <caption class="visually-hidden">Requests waiting for a decision</caption>
            <thead>
              <tr>
                <th scope="col">Requester</th>
                <th scope="col">Capability</th>
                <th scope="col">Level asked</th>
                <th scope="col">Note</th>
                <th scope="col">Asked</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <RequestRow c={c} r={r} outcome={outcome} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
  return accessPage(c, 'approve-requests', body, outcome?.status ?? 200);
}

async function act(c: ConsoleContext): Promise<Outcome> {
  const { db, settings, clock } = c.get('deps');
  const { tenantId, userId } = c.get('caller');
  const requestTtlDays = settings['access.request-ttl-days'];
  const fields = await formFields(c);
  const key = fields['id'] ?? '';
  if (fields['action'] === 'deny') {
    return attempt(key, async () => {
      const { id, decisionNote } = readInput(DenyForm, fields);
      const row = await denyAccessRequest(db, { tenantId, userId, id, decisionNote, requestTtlDays });
      return `Denied: ${personLabel(row.userId, row.userName)} was not given ${row.capabilityName ?? row.capabilityCode}.`;
    });
  }
  return attempt(key, async () => {
    const { id, level } = readInput(ApproveForm, fields);
    const row = await approveAccessRequest(db, { tenantId, userId, id, level, now: clock?.(), requestTtlDays });
    const granted = LEVEL_LABEL[row.grantedLevel ?? level].toLowerCase();
    return `Approved: ${personLabel(row.userId, row.userName)} now has ${granted} access to ${row.capabilityName ?? row.capabilityCode}.`;
  });
}

export function mountApproveRequests(app: Hono<ConsoleEnv>) {
  app.get(PATH, ownerOnly, (c) => render(c));
  app.post(PATH, ownerOnly, async (c) => render(c, await act(c)));
}
