// The replay corpus (docs/releases.md): real histories of every workflow type and of each path
// that matters, recorded by `npm run replay:record` and replayed against the current code by
// test/replay/replay-histories.test.ts. This file says what the corpus must hold and where.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { History } from '@temporalio/common/lib/proto-utils';
import { workflowsPath } from '../../workers/worker-process';
import { historyFromJson } from './history-json';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HISTORIES_DIR = fileURLToPath(new URL('./histories/', import.meta.url));

/**
 * The bundle each recorded workflow type replays against: the platform's own (workflowsPath, as
 * the worker loads it) unless the type only exists in a test bundle. outboundSender stands for
 * a business process that sends an outbound form: its waiting is the platform's awaitFormSubmitted;
 * slaClockWaiter for one that starts an SLA clock and waits with awaitSlaClockEvent.
 */
export const BUNDLES: Record<string, string> = {
  outboundSender: fileURLToPath(new URL('../support/workflows/outbound-sender.ts', import.meta.url)),
  slaClockWaiter: fileURLToPath(new URL('../support/workflows/sla-clock-waiter.ts', import.meta.url)),
};
export const bundleOf = (workflowType: string) => BUNDLES[workflowType] ?? workflowsPath;

/** The paths the corpus must hold (issue 23): `<workflow type>/<path>`. */
export const REQUIRED_PATHS = [
  'signatureCeremony/sequential-sealed',
  'signatureCeremony/parallel-sealed',
  'signatureCeremony/reminded-then-sealed',
  'signatureCeremony/expired',
  'signatureCeremony/cancelled',
  'signatureCeremony/seal-failing-continued-as-new',
  'signatureCeremony/sealed-after-continue-as-new',
  'formIntake/attachments-and-pdf',
  'formIntake/workflow-handling',
  'formIntake/unknown-handling',
  'formExpirySweep/batches',
  'outboundSender/answered',
  'outboundSender/expired',
  'phoneCall/ended-by-webhook',
  'phoneCall/ended-by-reconciliation',
  'phoneCall/scheduled-then-placed',
  'phoneCall/redialed',
  'phoneAction/placed',
  'documentScan/retried-then-clean',
  'retentionPurge/dry-run',
  'retentionPurge/real-run',
  'slaDueDate/due-date',
  'slaDueDate/calendar-not-found',
  'slaClock/breached-after-warnings',
  'slaClock/paused-resumed-cancelled',
  'slaClockWaiter/warned-then-breached',
  'slaClockWaiter/heard-before-waiting',
  'grantExpiry/revoked',
  'grantExpiry/superseded',
  'accessRequestExpirySweep/batches',
  'webhookDelivery/succeeded-after-retries',
  'webhookDelivery/failed-after-schedule',
] as const;

export interface CorpusHistory {
  /** `<workflow type>/<path>.json`, as it names the history in a failure. */
  name: string;
  workflowType: string;
  /** The recorded run's workflow id (code may derive ids from it, so the replay must use it). */
  workflowId: string;
  history: History;
}

export function readCorpus(): CorpusHistory[] {
  const out: CorpusHistory[] = [];
  if (!existsSync(HISTORIES_DIR)) return out;
  for (const type of readdirSync(HISTORIES_DIR, { withFileTypes: true })) {
    if (!type.isDirectory()) continue;
    for (const file of readdirSync(join(HISTORIES_DIR, type.name)).filter((f) => f.endsWith('.json')).sort()) {
      const path = join(HISTORIES_DIR, type.name, file);
      const { workflowId, ...history } = JSON.parse(readFileSync(path, 'utf8')) as { workflowId: string; events: unknown[] };
      out.push({ name: relative(HISTORIES_DIR, path), workflowType: type.name, workflowId, history: historyFromJson(history) });
    }
  }
  return out;
}

/** Every workflow type the platform worker runs: the functions workflows/index.ts exports. */
export async function platformWorkflowTypes(): Promise<Array<{ name: string; fn: Function }>> {
  const exported: Record<string, unknown> = await import('../../workflows/index');
  return Object.entries(exported)
    .filter((entry): entry is [string, Function] => typeof entry[1] === 'function')
    .map(([name, fn]) => ({ name, fn }));
}

/** What the corpus lacks: required paths without a history, platform workflow types without any. */
export async function missingFromCorpus(): Promise<string[]> {
  const held = new Set(readCorpus().map((h) => h.name.replace(/\.json$/, '')));
  const types = new Set([...held].map((n) => n.split('/')[0]));
  return [
    ...REQUIRED_PATHS.filter((p) => !held.has(p)),
    ...(await platformWorkflowTypes()).filter((t) => !types.has(t.name)).map((t) => `${t.name}/(any)`),
  ];
}
