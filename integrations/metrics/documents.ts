import { Counter } from 'prom-client';
import { metricsRegistry } from './registry';

const bytes = new Counter({
  name: 'platform_document_bytes_total',
  help: 'Document bytes stored by uploads (direction="upload") and served by downloads (direction="download", the length announced).',
  labelNames: ['direction'] as const,
  registers: [metricsRegistry],
});

const scans = new Counter({
  name: 'platform_document_scans_total',
  help: 'Malware scans of stored document versions by outcome: clean, infected, or error (scanner down or timed out; retried).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const countDocumentBytes = (direction: 'upload' | 'download', n: number) => bytes.inc({ direction }, n);

/** Counts a scan's outcome as it settles: clean, infected, or error (it threw). */
export async function countedScan<T extends { verdict: 'clean' | 'infected' }>(scan: Promise<T>): Promise<T> {
  try {
    const result = await scan;
    scans.inc({ outcome: result.verdict });
    return result;
  } catch (err) {
    scans.inc({ outcome: 'error' });
    throw err;
  }
}
