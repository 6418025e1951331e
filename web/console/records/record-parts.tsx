// The pieces every record page is made of: instants, sizes and durations in words, a list's
// empty state, the "Older" link of a keyset page, a table that scrolls on a narrow screen, and a
// definition list of submitted values.
import type { Child } from 'hono/jsx';

const pad = (n: number) => String(n).padStart(2, '0');

/** `2025-03-28 16:30 UTC`, with the exact instant for machines; a dash when there is none. */
export function When({ at }: { at: Date | string | null | undefined }) {
  if (!at) return <span>—</span>;
  const d = typeof at === 'string' ? new Date(at) : at;
  const text = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  return <time datetime={d.toISOString()}>{text}</time>;
}

/** 1 536 → "1.5 KB"; null (not stored yet) → a dash. */
export function formatBytes(size: number | null): string {
  if (size === null) return '—';
  if (size < 1024) return `${size} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Seconds between two instants as "1 min 5 s"; a dash while the call has not both started and ended. */
export function formatDuration(from: Date | null, to: Date | null): string {
  if (!from || !to) return '—';
  const seconds = Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', `${s} s`].filter(Boolean).join(' ');
}

/** What a list shows when it has no rows: a sentence saying what is empty. */
export function Empty({ children }: { children: Child }) {
  return <p class="empty-state" role="status">{children}</p>;
}

/** The next page of a keyset list: the same address with the API's `nextCursor` (none on the last page). */
export function OlderLink({ href, label = 'Older' }: { href: string | null; label?: string }) {
  if (!href) return null;
  return (
    <p class="pager">
      <a href={href} rel="next">
        {label}
      </a>
    </p>
  );
}

/**
 * A list of records as a table; on a narrow screen each row folds into a block whose cells name
 * their column (the console stylesheet's `stacked-table`). `rows` are cells in `head` order.
 */
export function RecordTable({ label, head, rows }: { label: string; head: string[]; rows: Child[][] }) {
  return (
    <div class="table-scroll">
      <table class="stacked-table">
        <caption class="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells) => (
            <tr>
              {cells.map((cell, i) => (
                <td data-label={head[i]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Facts about one record as a definition list: label, value. */
export function Facts({ items }: { items: Array<[string, Child]> }) {
  return (
    <dl class="facts">
      {items.map(([label, value]) => (
        <>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

/** A value of submitted data as text: strings as they are, lists joined, anything else as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join(', ');
  return JSON.stringify(value);
}

/** Submitted data as a definition list, in the order it was stored; labels from the form when it names them. */
export function DataList({ data, labels = {} }: { data: Record<string, unknown>; labels?: Record<string, string> }) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <Empty>No data was submitted.</Empty>;
  return (
    <dl class="facts submitted-data">
      {entries.map(([key, value]) => (
        <>
          <dt>{labels[key] ?? key}</dt>
          <dd>{valueText(value)}</dd>
        </>
      ))}
    </dl>
  );
}

/** `path?a=1&b=2` with the empty values left out. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
