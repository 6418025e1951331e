// The malware scanner the documents use, built from settings: none (`docstore.scan=off`) or a
// clamd client. Client construction only; what a scan decides lives in services/documents/settle.ts.
import { createClamdClient, type ClamdClient } from '../clamav/clamd-client';
import type { Settings } from '../../domain/settings';

export type Scanner = { mode: 'off' } | { mode: 'clamav'; client: ClamdClient };

export function createScanner(settings: Settings): Scanner {
  if (settings['docstore.scan'] === 'off') return { mode: 'off' };
  return {
    mode: 'clamav',
    client: createClamdClient({
      host: settings['docstore.clamav-host'],
      port: settings['docstore.clamav-port'],
      timeoutMs: settings['docstore.clamav-timeout-ms'],
    }),
  };
}
