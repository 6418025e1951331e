import { describe, expect, it } from 'vitest';
import { allSigned, groupToArm, initialStatus, orderGroups } from '../../../domain/signatures/routing';
import { initialsOf, signingDate } from '../../../services/signatures/seal-instance';

describe('ceremony routing', () => {
  const signers = [{ order: 2 }, { order: 1 }, { order: 2 }, { order: 5 }];

  it('sequential: the lowest order group starts armed, equal orders together; parallel: everyone', () => {
    expect(orderGroups(signers)).toEqual([1, 2, 5]);
    expect(signers.map((s) => initialStatus('sequential', signers, s.order))).toEqual(['R_WAITING', 'R_PENDING', 'R_WAITING', 'R_WAITING']);
    expect(signers.map((s) => initialStatus('parallel', signers, s.order))).toEqual(['R_PENDING', 'R_PENDING', 'R_PENDING', 'R_PENDING']);
  });

  it('arms the next group only once every lower recipient signed', () => {
    const r = (order: number, status: 'R_WAITING' | 'R_PENDING' | 'R_OPENED' | 'R_SIGNED', signerId = `${order}${status}`) => ({ signerId, order, status });
    expect(groupToArm('sequential', [r(1, 'R_OPENED'), r(2, 'R_WAITING')])).toBe(1);
    expect(groupToArm('sequential', [r(1, 'R_SIGNED'), r(2, 'R_WAITING'), r(2, 'R_PENDING', 'x'), r(3, 'R_WAITING')])).toBe(2);
    expect(groupToArm('sequential', [r(1, 'R_SIGNED'), r(2, 'R_SIGNED')])).toBeNull();
    expect(groupToArm('parallel', [r(1, 'R_PENDING')])).toBeNull();
    expect(allSigned([r(1, 'R_SIGNED'), r(2, 'R_SIGNED', 'y')])).toBe(true);
    expect(allSigned([r(1, 'R_SIGNED'), r(2, 'R_OPENED')])).toBe(false);
  });
});

describe('seal marks', () => {
  it('initials are the first letters of the words of a name', () => {
    expect(initialsOf('Mara Manager')).toBe('MM');
    expect(initialsOf('  ann  van dijk ')).toBe('AVD');
  });

  it("DATE is the signing date in the campaign's time zone", () => {
    const at = new Date('2026-03-01T23:30:00Z');
    expect(signingDate(at, 'UTC')).toBe('2026-03-01');
    expect(signingDate(at, 'Europe/Berlin')).toBe('2026-03-02');
    expect(signingDate(at, 'America/New_York')).toBe('2026-03-01');
  });
});
