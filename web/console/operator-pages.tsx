// The platform operator's pages of a tenant: its workflows (a deep link into the Temporal Web UI,
// filtered by the tenant's `TenantId` search attribute; hidden while `temporal.ui-url` is unset)
// and the capability catalog with this tenant's subscription to each. Read-only: catalog changes
// stay with the JSON API (/api/capabilities, operators only).
import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { listCatalog } from '../../services/access/catalog';
import { listTenantSubscriptions } from '../../services/access/subscriptions';
import { AppError } from '../../domain/errors';
import type { ConsoleEnv } from './env';
import { consolePage } from './shell';

/** Operators only; anyone else is told the page does not exist, as the navigation never shows it. */
const operatorOnly = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (!c.get('viewer').isOperator) throw new AppError('route-not-found', 'No such page');
  await next();
});

/** The Web UI's workflow list of one tenant, or undefined when no UI is configured. */
export function temporalWorkflowsUrl(c: Context<ConsoleEnv>, tenantId: string): string | undefined {
  const { settings } = c.get('deps');
  const base = settings['temporal.ui-url'];
  if (!base) return undefined;
  const query = encodeURIComponent(`TenantId="${tenantId}"`);
  return `${base.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(settings['temporal.namespace'])}/workflows?query=${query}`;
}

function workflowsPage(c: Context<ConsoleEnv>) {
  const url = temporalWorkflowsUrl(c, c.get('viewer').tenantId);
  return consolePage(c, {
    title: 'Workflows',
    section: 'workflows',
    body: url ? (
      <>
        <p>This tenant's durable processes (form intake, signature ceremonies, document scans, calls, SLA clocks) run in Temporal, each tagged with the tenant's id.</p>
        <p>
          <a href={url} rel="noopener noreferrer" target="_blank">
            Open this tenant's workflows in the Temporal Web UI<span class="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      </>
    ) : (
      <p class="empty-state">No Temporal Web UI is configured for this platform (setting temporal.ui-url), so there is no link to show.</p>
    ),
  });
}

async function catalogPage(c: Context<ConsoleEnv>) {
  const db = c.get('deps').db;
  const tenantId = c.get('viewer').tenantId;
  const [catalog, subscriptions] = await Promise.all([listCatalog(db), listTenantSubscriptions(db, { tenantId })]);
  const status = new Map(subscriptions.map((s) => [s.capabilityCode, s.status]));
  return consolePage(c, {
    title: 'Capability catalog',
    section: 'catalog',
    body:
      catalog.length === 0 ? (
        <p class="empty-state">The catalog is empty.</p>
      ) : (
        <div class="table-scroll">
          <table class="stacked-table">
            <caption class="visually-hidden">Capability catalog</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Name</th>
                <th scope="col">Catalog status</th>
                <th scope="col">Tier</th>
                <th scope="col">This tenant</th>
              </tr>
            </thead>
            <tbody>
              {catalog.map((cap) => (
                <tr>
                  <td data-label="Code">{cap.code}</td>
                  <td data-label="Name">{cap.name}</td>
                  <td data-label="Catalog status">{cap.status}</td>
                  <td data-label="Tier">{cap.tier}</td>
                  <td data-label="This tenant">{status.get(cap.code) ?? 'Not subscribed'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ),
  });
}

export function mountOperatorPages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/workflows', operatorOnly, workflowsPage);
  app.get('/console/:tenantId/catalog', operatorOnly, catalogPage);
}
