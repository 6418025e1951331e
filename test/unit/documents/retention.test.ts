import { describe, expect, it } from 'vitest';
import { retainUntilFrom, retentionModeFor, retentionPlan } from '../../../domain/documents/retention';

describe('retention per capability', () => {
  const days = { FORMS: 365, SIGNATURES: 3650, EMAIL: 0 };

  it('is COMPLIANCE for SIGNATURES and GOVERNANCE for every other capability', () => {
    expect(retentionModeFor('SIGNATURES')).toBe('COMPLIANCE');
    expect(retentionModeFor('FORMS')).toBe('GOVERNANCE');
    expect(retentionModeFor('EMAIL')).toBe('GOVERNANCE');
  });

  it('plans the capability horizon; 0 days or an unknown capability means no retention', () => {
    expect(retentionPlan('SIGNATURES', days)).toEqual({ mode: 'COMPLIANCE', days: 3650 });
    expect(retentionPlan('FORMS', days)).toEqual({ mode: 'GOVERNANCE', days: 365 });
    expect(retentionPlan('EMAIL', days)).toBeNull();
    expect(retentionPlan('OTHER', days)).toBeNull();
  });

  it('retainUntil is now + days, rounded up to the whole second (S3 dates have no milliseconds)', () => {
    const now = new Date('2024-02-28T10:00:00.250Z');
    expect(retainUntilFrom(now, 1).toISOString()).toBe('2024-02-29T10:00:01.000Z');
    expect(retainUntilFrom(new Date('2024-01-01T00:00:00.000Z'), 366).toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });
});
