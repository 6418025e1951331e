// Manage My Access (every member): my capabilities and their effective levels, my requests with
// their status and a cancel, and a request for a capability the tenant is subscribed to.
// The reads and writes are the JSON API's: GET /api/my-capabilities, /api/my-access-requests,
// POST /api/access-requests and /api/access-requests/{id}/cancel (members only, as there).
import type { Hono } from 'hono';
import { cancelAccessRequest, listAccessRequestsWithNames, submitAccessRequest } from '../../../services/access/access-requests';
import { listUserGrants } from '../../../services/access/grants';
import { listTenantSubscriptions } from '../../../services/access/subscriptions';
import { forbidden } from '../../../domain/errors';
import type { ConsoleEnv } from '../env';
import { accessPage, ActionForm, attempt, formFields, noticeFor, readInput, strayNotice, type ConsoleContext, type Outcome } from './access-page';
import { CancelForm, RequestForm } from './form-input';
import { LEVEL_LABEL, LEVEL_OPTIONS, Options, REQUEST_STATUS_LABEL, When } from './labels';

const PATH = '/console/:tenantId/access/my-access';

async function load(c: ConsoleContext) {
  const { db, settings } = c.get('deps');
  const { tenantId, userId, isMember } = c.get('caller');
  const [subscriptions, { grants }, requests] = await Promise.all([
    listTenantSubscriptions(db, { tenantId }),
    listUserGrants(db, { tenantId, userId }),
    isMember ? listAccessRequestsWithNames(db, { tenantId, userId, requestTtlDays: settings['access.request-ttl-days'] }) : Promise.resolve([]),
  ]);
  return { subscriptions, grants, requests, isMember };
}

type Data = Awaited<ReturnType<typeof load>>;

function MyCapabilities({ grants }: { grants: Data['grants'] }) {
  if (grants.length === 0) return <p class="empty-state">You have no access to any capability of this tenant yet. Request it below.</p>;
  return (
    <div class="table-scroll">
      <table class="stacked-table">
        <caption class="visually-hidden">My capabilities</caption>
        <thead>
          <tr>
            <th scope="col">Capability</th>
            <th scope="col">Granted level</th>
            <th scope="col">Effective level</th>
            <th scope="col">Ends</th>
          </tr>
        </thead>
        <tbody>
          {grants.map((g) => (
            <tr>
              <td data-label="Capability">{g.capabilityName}</td>
              <td data-label="Granted level">{LEVEL_LABEL[g.level]}</td>
              <td data-label="Effective level">
                {/* Rule 1: a grant counts only while the tenant's subscription is ACTIVE. */}
                {g.subscription === 'ACTIVE' ? LEVEL_LABEL[g.level] : 'None: the subscription is not active'}
              </td>
              <td data-label="Ends">{g.expiresAt ? <When at={g.expiresAt} /> : 'Never'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MyRequests({ c, requests, outcome }: { c: ConsoleContext; requests: Data['requests']; outcome?: Outcome | undefined }) {
  if (requests.length === 0) return <p class="empty-state">You have made no requests.</p>;
  return (
    <div class="table-scroll">
      <table class="stacked-table">
        <caption class="visually-hidden">My requests</caption>
        <thead>
          <tr>
            <th scope="col">Capability</th>
            <th scope="col">Level</th>
            <th scope="col">Status</th>
            <th scope="col">Asked</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => (
            <tr id={`request-${r.id}`}>
              <td data-label="Capability">{r.capabilityName ?? r.capabilityCode}</td>
              <td data-label="Level">{LEVEL_LABEL[r.grantedLevel ?? r.requestedLevel]}</td>
              <td data-label="Status">
                <span class="status">{REQUEST_STATUS_LABEL[r.status] ?? r.status}</span>
              </td>
              <td data-label="Asked">
                <When at={r.createdAt} />
              </td>
              <td data-label="Decision">
                {r.decisionNote ? <p>{r.decisionNote}</p> : null}
                {r.status === 'PENDING' ? (
                  <ActionForm c={c} action="cancel" label={`Cancel the request for ${r.capabilityName ?? r.capabilityCode}`}>
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" class="secondary">
                      Cancel request<span class="visually-hidden"> for {r.capabilityName ?? r.capabilityCode}</span>
                    </button>
                  </ActionForm>
                ) : null}
                {noticeFor(outcome, r.id)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RequestAccess({ c, subscriptions, outcome }: { c: ConsoleContext; subscriptions: Data['subscriptions']; outcome?: Outcome | undefined }) {
  const active = subscriptions.filter((s) => s.status === 'ACTIVE');
  if (active.length === 0) return <p class="empty-state">This tenant is not subscribed to any capability, so there is nothing to request.</p>;
  return (
    <ActionForm c={c} action="request" class="stack" label="Request access">
      <div class="field">
        <label for="capabilityCode">Capability</label>
        <select id="capabilityCode" name="capabilityCode" required>
          <Options options={active.map((s) => ({ value: s.capabilityCode, label: s.capabilityName }))} />
        </select>
      </div>
      <div class="field">
        <label for="requestedLevel">Level</label>
        <select id="requestedLevel" name="requestedLevel">
          <Options options={LEVEL_OPTIONS} />
        </select>
      </div>
      <div class="field">
        <label for="note">Note for the owners (optional)</label>
        <textarea id="note" name="note" maxlength={2000}></textarea>
      </div>
      <div>
        <button type="submit">Send request</button>
      </div>
      {noticeFor(outcome, 'request-form')}
    </ActionForm>
  );
}

async function render(c: ConsoleContext, outcome?: Outcome) {
  const data = await load(c);
  const body = data.isMember ? (
    <>
      <h2>My capabilities</h2>
      <MyCapabilities grants={data.grants} />
      <h2>My requests</h2>
      {strayNotice(outcome, [...data.requests.map((r) => r.id), 'request-form'])}
      <MyRequests c={c} requests={data.requests} outcome={outcome} />
      <h2>Request access</h2>
      <RequestAccess c={c} subscriptions={data.subscriptions} outcome={outcome} />
    </>
  ) : (
    <p>You are not a member of this tenant: as a platform operator you administer it, but hold no access of your own here.</p>
  );
  return accessPage(c, 'my-access', body, outcome?.status ?? 200);
}

async function act(c: ConsoleContext): Promise<Outcome> {
  const { db, settings } = c.get('deps');
  const { tenantId, userId, isMember } = c.get('caller');
  const requestTtlDays = settings['access.request-ttl-days'];
  const fields = await formFields(c);
  if (fields['action'] === 'cancel') {
    return attempt(fields['id'] ?? '', async () => {
      const { id } = readInput(CancelForm, fields);
      if (!isMember) throw forbidden('not-a-member', 'Caller is not a member of this tenant');
      const row = await cancelAccessRequest(db, { tenantId, userId, id, requestTtlDays });
      return `Your request for ${row.capabilityName ?? row.capabilityCode} is cancelled.`;
    });
  }
  return attempt('request-form', async () => {
    const input = readInput(RequestForm, fields);
    if (!isMember) throw forbidden('not-a-member', 'Caller is not a member of this tenant');
    const row = await submitAccessRequest(db, { ...input, tenantId, userId, requestTtlDays });
    return `Your request for ${row.capabilityName ?? row.capabilityCode} (${LEVEL_LABEL[row.requestedLevel].toLowerCase()}) was sent to the owners.`;
  });
}

export function mountMyAccess(app: Hono<ConsoleEnv>) {
  app.get(PATH, (c) => render(c));
  app.post(PATH, async (c) => render(c, await act(c)));
}
