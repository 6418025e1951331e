// The object-key rule answers both keys in one place: the tenant-relative key the registry row
// keeps and the physical key in the bucket, which is always the caller's tenant plus that key.
import { describe, expect, it } from 'vitest';
import { buildObjectKey, objectKeys, physicalKey } from '../../../domain/documents/storage-key';
import { retentionPlanFor } from '../../../domain/documents/retention';
import { loadSettings } from '../../../workers/config';

const input = { tenantId: 'tenant-a', processRef: 'case-42', docId: 'c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f', filename: 'My Scan.PDF' };

describe('objectKeys', () => {
  it('answers the tenant-relative storage key and the physical key, which is the tenant plus it', () => {
    expect(objectKeys(input)).toEqual({
      storageKey: 'case-42/c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f-my-scan.pdf',
      physicalKey: 'tenant-a/case-42/c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f-my-scan.pdf',
    });
  });

  it('agrees with physicalKey and buildObjectKey', () => {
    const keys = objectKeys(input);
    expect(physicalKey(input.tenantId, keys.storageKey)).toBe(keys.physicalKey);
    expect(buildObjectKey(input)).toBe(keys.physicalKey);
  });

  it('checks the tenant first, as the key was always built', () => {
    expect(() => objectKeys({ ...input, tenantId: 'a/b', processRef: '..' })).toThrow(expect.objectContaining({ field: 'tenantId' }));
  });
});

describe('physicalKey', () => {
  it('prefixes the tenant id', () => {
    expect(physicalKey('tenant-b', 'p/d-x.pdf')).toBe('tenant-b/p/d-x.pdf');
  });

  it.each(['', 'a/b', '..', 'a\\b', '%2e%2e'])('refuses a tenant id that could leave its prefix: %j', (tenantId) => {
    expect(() => physicalKey(tenantId, 'p/d-x.pdf')).toThrow(expect.objectContaining({ field: 'tenantId' }));
  });
});

describe('retentionPlanFor', () => {
  it('reads the horizons from the settings: COMPLIANCE for SIGNATURES, GOVERNANCE otherwise, none at 0 days', () => {
    const settings = loadSettings({}, { 'docstore.retention-days.email': 0 });
    expect(retentionPlanFor(settings, 'FORMS')).toEqual({ mode: 'GOVERNANCE', days: 365 });
    expect(retentionPlanFor(settings, 'SIGNATURES')).toEqual({ mode: 'COMPLIANCE', days: 3650 });
    expect(retentionPlanFor(settings, 'EMAIL')).toBeNull();
  });
});
