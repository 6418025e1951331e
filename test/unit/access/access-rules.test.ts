import { describe, expect, it } from 'vitest';
import { assertCapabilityAccess, assertSubscribed, hasCapabilityAccess } from '../../../domain/access/capability-access';
import { ownerGroupId, roleGroupId, tenantOfGroup } from '../../../domain/access/groups';
import { LEVELS, levelCovers } from '../../../domain/access/levels';
import { refuseApiClient, requireMember } from '../../../domain/access/members';
import { AppError } from '../../../domain/errors';

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.code}`;
    throw err;
  }
  return 'allowed';
};

describe('access rules', () => {
  it('names groups by kind and tenant, and knows which tenant a group change touches', () => {
    expect(ownerGroupId('acme')).toBe('owner:acme');
    expect(roleGroupId('acme', 'reviewers')).toBe('role:acme:reviewers');
    expect(tenantOfGroup(ownerGroupId('acme'))).toBe('acme');
    expect(tenantOfGroup(roleGroupId('acme', 'reviewers'))).toBeNull();
    expect(tenantOfGroup('platform-operators')).toBe('*');
  });

  it('orders levels: read-write covers read, read does not cover read-write', () => {
    expect(LEVELS).toEqual(['read', 'read-write']);
    expect(levelCovers('read', 'read')).toBe(true);
    expect(levelCovers('read-write', 'read')).toBe(true);
    expect(levelCovers('read-write', 'read-write')).toBe(true);
    expect(levelCovers('read', 'read-write')).toBe(false);
  });

  it('refuses non-members and API clients where a person is required', () => {
    expect(codeOf(() => requireMember(null, 'u1'))).toBe('422 user-not-a-member');
    expect(codeOf(() => requireMember({ role: 'member' }, 'u1'))).toBe('allowed');
    expect(codeOf(() => refuseApiClient({ role: 'api-client' }))).toBe('422 api-client-role-fixed');
    expect(codeOf(() => refuseApiClient({ role: 'member' }))).toBe('allowed');
    expect(codeOf(() => refuseApiClient(null))).toBe('allowed');
  });

  it('decides capability access in two layers, the assertion and the predicate agreeing', () => {
    const cases = [
      { subscriptions: {}, grants: { PHONE: 'read-write' }, read: '403 capability-not-subscribed', write: '403 capability-not-subscribed' },
      { subscriptions: { PHONE: 'SUSPENDED' }, grants: { PHONE: 'read-write' }, read: '403 capability-not-subscribed', write: '403 capability-not-subscribed' },
      { subscriptions: { PHONE: 'ACTIVE' }, grants: {}, read: '403 capability-not-granted', write: '403 capability-not-granted' },
      { subscriptions: { PHONE: 'ACTIVE' }, grants: { PHONE: 'read' }, read: 'allowed', write: '403 capability-write-required' },
      { subscriptions: { PHONE: 'ACTIVE' }, grants: { PHONE: 'read-write' }, read: 'allowed', write: 'allowed' },
    ];
    for (const { read, write, ...snapshot } of cases) {
      expect(codeOf(() => assertCapabilityAccess(snapshot, 'PHONE', 'read'))).toBe(read);
      expect(codeOf(() => assertCapabilityAccess(snapshot, 'PHONE', 'write'))).toBe(write);
      expect(hasCapabilityAccess(snapshot, 'PHONE', 'read')).toBe(read === 'allowed');
      expect(hasCapabilityAccess(snapshot, 'PHONE', 'write')).toBe(write === 'allowed');
    }
  });

  it('checks layer 1 alone for callers without grants, with the full rule\'s code', () => {
    expect(codeOf(() => assertSubscribed({ subscriptions: { PHONE: 'ACTIVE' } }, 'PHONE'))).toBe('allowed');
    expect(codeOf(() => assertSubscribed({ subscriptions: { PHONE: 'SUSPENDED' } }, 'PHONE'))).toBe('403 capability-not-subscribed');
    expect(codeOf(() => assertSubscribed({ subscriptions: {} }, 'PHONE'))).toBe('403 capability-not-subscribed');
  });
});
