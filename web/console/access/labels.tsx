// How access facts read on a page: levels, statuses and instants in words.
import type { Level } from '../../../domain/access/levels';

export const LEVEL_LABEL: Record<Level, string> = { read: 'Read', 'read-write': 'Read and write' };

export const REQUEST_STATUS_LABEL: Record<string, string> = {
  PENDING: 'Waiting for a decision',
  APPROVED: 'Approved',
  DENIED: 'Denied',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `2025-03-28 16:30 UTC`, the exact instant in `datetime`; a dash when there is none. */
export function When({ at }: { at: Date | null | undefined }) {
  if (!at) return <span>—</span>;
  const text = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
  return <time datetime={at.toISOString()}>{text}</time>;
}

/** A person as the directory knows them: name and id, or the id alone. */
export const personLabel = (userId: string, name: string | null | undefined) => (name ? `${name} (${userId})` : userId);

/** A select's options, the current value chosen. */
export function Options({ options, selected }: { options: readonly { value: string; label: string }[]; selected?: string | undefined }) {
  return (
    <>
      {options.map((o) => (
        <option value={o.value} selected={o.value === selected}>
          {o.label}
        </option>
      ))}
    </>
  );
}

export const LEVEL_OPTIONS = [
  { value: 'read', label: LEVEL_LABEL.read },
  { value: 'read-write', label: LEVEL_LABEL['read-write'] },
] as const;
