import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCodes, isErrorCode, type ErrorCode } from '../../../domain/error-codes';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../domain/errors';
import { errorTable, readmeErrorTable } from '../../../scripts/error-table';

/**
 * The spec's Errors table (platform-spec.md, "Errors") by status, each condition with the code
 * this service answers it with. Conditions of parts not built here (signed.pdf, embed submissions,
 * the render queue) have no code yet.
 */
const SPEC_ERRORS: { status: number | '4xx'; condition: string; codes: ErrorCode[] }[] = [
  { status: 401, condition: 'webhook secret missing or mismatched while required', codes: ['webhook-secret-invalid'] },
  { status: 403, condition: "cancelling an access request that is not the caller's", codes: ['not-requester'] },
  { status: 404, condition: 'document of another tenant', codes: ['document-not-found'] },
  { status: 404, condition: 'unknown token on public routes', codes: ['invitation-not-found'] },
  { status: 409, condition: 'access request already granted at that level or an open request exists', codes: ['already-granted', 'request-already-open'] },
  { status: 409, condition: 'cancel of a non-PENDING request', codes: ['request-not-pending'] },
  { status: 409, condition: 'setting a grant while the tenant is not subscribed', codes: ['tenant-not-subscribed'] },
  { status: 409, condition: 'concurrent draft save or concurrent registry write (optimistic lock)', codes: ['version-conflict'] },
  { status: 409, condition: 'publishing a version not signed off', codes: ['version-not-signed-off'] },
  { status: 409, condition: 'downloading a document that is not READY', codes: ['document-not-ready'] },
  { status: 413, condition: 'upload above the size cap', codes: ['document-too-large'] },
  { status: 422, condition: 'access request for an unknown capability or one the tenant is not subscribed to', codes: ['capability-unknown', 'requested-capability-not-subscribed'] },
  { status: 423, condition: 'download of a QUARANTINED document', codes: ['document-quarantined'] },
  {
    status: '4xx',
    condition: 'outbound phone call with bad caller input',
    codes: ['invalid-customer-number', 'assistant-unresolved', 'phone-number-unresolved', 'unknown-phone-number', 'provider-key-missing', 'provider-key-rejected', 'provider-rejected'],
  },
];

describe('error codes', () => {
  it('the README error table is the one generated from domain/error-codes.ts (npx tsx scripts/error-table.ts --write)', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readmeErrorTable(readme), 'README lacks the errors markers').toBeDefined();
    expect(readmeErrorTable(readme)).toBe(errorTable());
  });

  it('every code is kebab-case with a 4xx or 5xx status and a one-sentence meaning', () => {
    for (const [code, d] of Object.entries(errorCodes)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(d.status, code).toBeGreaterThanOrEqual(400);
      expect(d.status, code).toBeLessThan(600);
      expect(d.meaning, code).toMatch(/^\S.*\.$/);
    }
  });

  it.each(SPEC_ERRORS)("the spec's $status for $condition", ({ status, codes }) => {
    for (const code of codes) {
      const actual = errorCodes[code].status;
      if (status === '4xx') {
        expect(actual, code).toBeGreaterThanOrEqual(400);
        expect(actual, code).toBeLessThan(500);
      } else {
        expect(actual, code).toBe(status);
      }
    }
  });

  it('an AppError takes its status from the table, the shorthands too', () => {
    expect(new AppError('not-a-member', 'x').status).toBe(403);
    expect(new AppError('capability-not-subscribed', 'x').status).toBe(403);
    expect(new AppError('requested-capability-not-subscribed', 'x').status).toBe(422);
    expect(new AppError('internal-error', 'x').status).toBe(500);
    expect(badRequest('validation-failed', 'x', { errors: [] })).toMatchObject({ status: 400, extra: { errors: [] } });
    expect(forbidden('owner-required', 'x').status).toBe(403);
    expect(notFound('Thing', 'tenant-not-found')).toMatchObject({ status: 404, detail: 'Thing was not found' });
    expect(conflict('last-owner', 'x').status).toBe(409);
  });

  it('knows its codes (a relayed problem code is checked before it is raised)', () => {
    expect(isErrorCode('version-conflict')).toBe(true);
    expect(isErrorCode('no-such-code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});

// Compile-time checks (npm run typecheck): a code of another status, or no code at all, is refused.
export function refusedAtCompileTime() {
  // @ts-expect-error 'no-such-code' is not in the table
  new AppError('no-such-code', 'x');
  // @ts-expect-error not-a-member is 403, not 409
  conflict('not-a-member', 'x');
  // @ts-expect-error user-not-a-member is 422, not 403
  forbidden('user-not-a-member', 'x');
  // @ts-expect-error document-not-ready is 409, not 404
  notFound('Document', 'document-not-ready');
  // @ts-expect-error a status is no longer given
  new AppError('tenant-exists', 409, 'x');
}
