// The faults bench's steady load: API writes at a fixed pace whatever the answers, each with its
// own deadline. Two kinds, each a workflow effect through the outbox:
// - `submit`: a public embed submission; its formIntake workflow is started (outbox start row);
// - `pause` / `resume`: a step of a running SLA clock; its slaClock workflow is signalled
//   (outbox signal row, SlaClockChanged).
// Every request is recorded with its answer; nothing is retried (a retry would hide a loss).
import { OWNER } from './fault-seed';

export type WriteKind = 'submit' | 'pause' | 'resume';

export interface WriteRecord {
  kind: WriteKind;
  /** The instance id (submit, from its 2xx answer) or the clock id (pause, resume). */
  key: string | null;
  sentAt: number;
  answeredAt: number;
  /** HTTP status, or `timeout` past the deadline, or `error` for no answer at all. */
  status: number | 'timeout' | 'error';
  retryAfter: string | null;
  code: string | null;
}

export interface LoadOptions {
  base: string;
  embedToken: string;
  clockIds: string[];
  submitsPerSecond: number;
  stepsPerSecond: number;
  /** The caller's deadline: an answer later than this is a hang. */
  timeoutMs: number;
}

type ClockState = 'RUNNING' | 'PAUSED' | 'BUSY';

export interface SteadyLoad {
  records: WriteRecord[];
  inFlight(): number;
  stop(): Promise<void>;
}

export function startSteadyLoad(o: LoadOptions): SteadyLoad {
  const records: WriteRecord[] = [];
  const pending = new Set<Promise<void>>();
  const clocks = new Map<string, ClockState>(o.clockIds.map((id) => [id, 'RUNNING']));
  let submitted = 0;
  let nextClock = 0;

  async function send(kind: WriteKind, path: string, headers: Record<string, string>, body: unknown, key: string | null) {
    const sentAt = Date.now();
    const record: WriteRecord = { kind, key, sentAt, answeredAt: sentAt, status: 'error', retryAfter: null, code: null };
    let json: any = null;
    try {
      const res = await fetch(`${o.base}${path}`, {
        method: 'POST',
        headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      record.status = res.status;
      record.retryAfter = res.headers.get('retry-after');
      const text = await res.text();
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (res.status >= 300) record.code = json?.code ?? null;
    } catch (err) {
      record.status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'error';
      record.code = (err as Error).message.slice(0, 200);
    }
    record.answeredAt = Date.now();
    records.push(record);
    return { record, json };
  }

  function submit() {
    const n = submitted++;
    return send('submit', `/api/public/embed/${o.embedToken}/submit`, {}, { data: { email: `f${n}@example.com` } }, null).then(({ record, json }) => {
      if (record.status === 201) record.key = json.id;
    });
  }

  /** The next clock with no step in flight: pause it when RUNNING, resume it when PAUSED. */
  function step() {
    for (let tried = 0; tried < o.clockIds.length; tried++) {
      const id = o.clockIds[nextClock++ % o.clockIds.length]!;
      const state = clocks.get(id)!;
      if (state === 'BUSY') continue;
      const kind = state === 'RUNNING' ? 'pause' : 'resume';
      clocks.set(id, 'BUSY');
      return send(kind, `/api/sla-clocks/${id}/${kind}`, OWNER, undefined, id).then(({ record, json }) => {
        // The answer (200, or 409 sla-clock-state-conflict) says where the clock is; a 503 or a
        // timeout leaves it unknown, and the next step's 409 tells.
        const now = record.status === 200 || record.status === 409 ? json?.state : undefined;
        clocks.set(id, now === 'PAUSED' ? 'PAUSED' : now === 'RUNNING' ? 'RUNNING' : state);
      });
    }
    return Promise.resolve();
  }

  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const timers = [
    setInterval(() => track(submit()), 1000 / o.submitsPerSecond),
    setInterval(() => track(step()), 1000 / o.stepsPerSecond),
  ];
  return {
    records,
    inFlight: () => pending.size,
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all([...pending]);
    },
  };
}
