// Registry responses over HTTP carry the storage key only sealed (AES-256-GCM under a key
// derived from `internal.key`, bound to tenant and document), so no response of either tier
// ever shows a storage key, and a ticket copied to another document or tenant does not open.
import { hkdfSync } from 'node:crypto';
import { openSecret, sealSecret } from '../../domain/secret-box';
import { AppError } from '../../domain/errors';

const keyCache = new Map<string, Buffer>();

function ticketKey(internalKey: string): Buffer {
  let key = keyCache.get(internalKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', internalKey, 'docstore', 'storage-ticket-v1', 32));
    keyCache.clear();
    keyCache.set(internalKey, key);
  }
  return key;
}

const bound = (tenantId: string, docId: string) => `${tenantId}\u0000${docId}`;

export function sealStorageKey(internalKey: string, tenantId: string, docId: string, storageKey: string): string {
  return sealSecret(ticketKey(internalKey), storageKey, bound(tenantId, docId));
}

export function openStorageTicket(internalKey: string, tenantId: string, docId: string, ticket: string): string {
  try {
    return openSecret(ticketKey(internalKey), ticket, bound(tenantId, docId));
  } catch {
    throw new AppError('registry-unavailable', 'The document registry answered with an unusable storage ticket');
  }
}
