// What a settled scan writes on the document row, for the upload's finalize and for the durable
// scan retry alike: INFECTED → QUARANTINED with its signature; CLEAN or SKIPPED → READY with the
// retention the stored version got (scannedAt only when a scan really ran).
import type { RetentionMode } from './retention';

export interface SettledScan {
  scan: 'INFECTED' | 'CLEAN' | 'SKIPPED';
  signature?: string | null;
  retention?: { mode: RetentionMode; retainUntil: Date } | null;
}

export function settledColumns(o: SettledScan, at: Date, scanAttempts: number) {
  if (o.scan === 'INFECTED') {
    return { status: 'QUARANTINED' as const, scanStatus: 'INFECTED' as const, scanSignature: o.signature ?? null, scannedAt: at, scanAttempts };
  }
  return {
    status: 'READY' as const,
    scanStatus: o.scan,
    scannedAt: o.scan === 'CLEAN' ? at : null,
    scanAttempts,
    retainUntil: o.retention?.retainUntil ?? null,
    retentionMode: o.retention?.mode ?? null,
  };
}
