import { describe, expect, it } from 'vitest';
import { pathForLog } from '../../../api/middleware/log-path';
import { UNMATCHED_ROUTE } from '../../../integrations/metrics/http';

const TOKEN = 'Qm9ndXMtdG9rZW4tZm9yLWEtdGVzdC0wMTIzNDU2Nzg5YWJj'.slice(0, 43);

describe('the path a request log line writes', () => {
  it('redacts the segment a matched route names :token, whatever its shape', () => {
    expect(pathForLog(`/sign/${TOKEN}`, '/sign/:token')).toBe('/sign/[redacted]');
    expect(pathForLog('/api/public/embed/short/submit', '/api/public/embed/:token/submit')).toBe('/api/public/embed/[redacted]/submit');
    expect(pathForLog(`/api/invitations/${TOKEN}/accept`, '/api/invitations/:token/accept')).toBe('/api/invitations/[redacted]/accept');
  });

  it('keeps the path of a route without a token as it is, ids included', () => {
    const path = '/api/documents/0b5e4c1a-6f0e-4a39-9d3b-2a1f5a6c7d8e';
    expect(pathForLog(path, '/api/documents/:id')).toBe(path);
  });

  it('redacts token-shaped segments of a path no route matched (a mistyped link still holds its token)', () => {
    expect(pathForLog(`/sign/${TOKEN}/`, UNMATCHED_ROUTE)).toBe('/sign/[redacted]/');
    expect(pathForLog('/no/such/route', UNMATCHED_ROUTE)).toBe('/no/such/route');
  });
});
