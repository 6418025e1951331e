import { describe, expect, it } from 'vitest';
import { ifMatchVersion, listSelector } from '../../../api/documents/request-parts';
import { openStorageTicket, sealStorageKey } from '../../../api/documents/storage-ticket';
import { sameSecret } from '../../../api/middleware/internal-key';
import { AppError } from '../../../domain/errors';

describe('internal key comparison', () => {
  it('is equality of the whole secret, whatever the lengths', () => {
    expect(sameSecret('k3y-secret', 'k3y-secret')).toBe(true);
    expect(sameSecret('k3y-secre', 'k3y-secret')).toBe(false);
    expect(sameSecret('k3y-secretx', 'k3y-secret')).toBe(false);
    expect(sameSecret('', 'k3y-secret')).toBe(false);
  });
});

describe('storage tickets (sealed storage keys between the tiers)', () => {
  const key = 'case-1/0b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11-scan.pdf';
  const docId = '0b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11';

  it('never show the key and open only with the same internal key, tenant and document', () => {
    const ticket = sealStorageKey('secret-a', 'acme', docId, key);
    expect(ticket).not.toContain('case-1');
    expect(ticket).not.toContain(Buffer.from(key).toString('base64url').slice(0, 12));
    expect(openStorageTicket('secret-a', 'acme', docId, ticket)).toBe(key);
    for (const [k, t, d] of [['secret-b', 'acme', docId], ['secret-a', 'other', docId], ['secret-a', 'acme', '1b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11']]) {
      expect(() => openStorageTicket(k!, t!, d!, ticket)).toThrow(AppError);
    }
  });

  it('differ on every seal (random IV) and a tampered ticket does not open', () => {
    const a = sealStorageKey('s', 'acme', docId, key);
    expect(sealStorageKey('s', 'acme', docId, key)).not.toBe(a);
    const parts = a.split('.');
    parts[3] = Buffer.from('evil/../key').toString('base64url');
    expect(() => openStorageTicket('s', 'acme', docId, parts.join('.'))).toThrow(AppError);
  });
});

describe('If-Match carries the expected document version', () => {
  it('accepts "3", 3 and W/"3"; absent is undefined', () => {
    expect(ifMatchVersion('"3"')).toBe(3);
    expect(ifMatchVersion('3')).toBe(3);
    expect(ifMatchVersion('W/"3"')).toBe(3);
    expect(ifMatchVersion(undefined)).toBeUndefined();
    expect(ifMatchVersion('')).toBeUndefined();
  });

  it('refuses anything else with 400 malformed-header', () => {
    for (const h of ['"abc"', '*', '"1", "2"', '-1']) {
      expect(() => ifMatchVersion(h)).toThrow(expect.objectContaining({ status: 400, code: 'malformed-header' }));
    }
  });
});

describe('list selectors', () => {
  const q = (o: Record<string, string>) => ({ limit: 50, ...o }) as Parameters<typeof listSelector>[0];

  it('takes exactly one of processRef, taskId, capability with ownerEntityId', () => {
    expect(listSelector(q({ processRef: 'p' }))).toEqual({ processRef: 'p' });
    expect(listSelector(q({ taskId: 't' }))).toEqual({ taskId: 't' });
    expect(listSelector(q({ capability: 'FORMS', ownerEntityId: 'o' }))).toEqual({ capability: 'FORMS', ownerEntityId: 'o' });
  });

  it('refuses none, two, or half a pair (400 list-selector-required)', () => {
    const cases: Array<Record<string, string>> = [{}, { processRef: 'p', taskId: 't' }, { capability: 'FORMS' }, { ownerEntityId: 'o' }];
    for (const o of cases) {
      expect(() => listSelector(q(o))).toThrow(expect.objectContaining({ status: 400, code: 'list-selector-required' }));
    }
  });
});
