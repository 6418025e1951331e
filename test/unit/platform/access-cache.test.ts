import { describe, expect, it } from 'vitest';
import { AccessCache } from '../../../api/access-cache';
import type { CallerSnapshot } from '../../../db/queries/caller-snapshot';

const snap = (grants: CallerSnapshot['grants'] = {}): CallerSnapshot => ({
  tenantExists: true,
  isMember: true,
  isOwner: false,
  isOperator: false,
  subscriptions: {},
  grants,
});

describe('AccessCache', () => {
  it('returns a cached snapshot until its TTL passes', () => {
    let now = 0;
    const cache = new AccessCache(1000, 10, () => now);
    cache.set('t', 'u', snap({ PHONE: 'read' }));
    now = 999;
    expect(cache.get('t', 'u')?.grants).toEqual({ PHONE: 'read' });
    now = 1000;
    expect(cache.get('t', 'u')).toBeUndefined();
  });

  it('drops one tenant on invalidate and everything on *', () => {
    const cache = new AccessCache(1000);
    cache.set('a', 'u', snap());
    cache.set('b', 'u', snap());
    cache.invalidate('a');
    expect(cache.get('a', 'u')).toBeUndefined();
    expect(cache.get('b', 'u')).toBeDefined();
    cache.invalidate('*');
    expect(cache.get('b', 'u')).toBeUndefined();
  });

  it('never caches when the TTL is 0', () => {
    const cache = new AccessCache(0);
    cache.set('t', 'u', snap());
    expect(cache.get('t', 'u')).toBeUndefined();
  });

  it('stays bounded: past maxEntries it starts over', () => {
    const cache = new AccessCache(1000, 2);
    cache.set('t', 'a', snap());
    cache.set('t', 'b', snap());
    cache.set('t', 'c', snap());
    expect(cache.get('t', 'a')).toBeUndefined();
    expect(cache.get('t', 'c')).toBeDefined();
  });
});
