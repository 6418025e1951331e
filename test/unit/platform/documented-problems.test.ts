import { createRoute } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { capabilityGuard } from '../../../api/middleware/capability-guard';
import { createRouter, problemResponses } from '../../../api/openapi';

const responsesOf = (middleware: unknown[], declared: number[]) => {
  const app = createRouter();
  const route = createRoute({ method: 'get', path: '/r', middleware: middleware as never, responses: { 200: { description: 'OK' }, ...problemResponses(...declared) } });
  app.openapi(route, (c) => c.body(null, 200) as never);
  const doc = app.getOpenAPIDocument({ openapi: '3.0.0', info: { title: 't', version: '1' } });
  return Object.keys((doc.paths['/r'] as { get: { responses: object } }).get.responses);
};

describe('problem statuses documented from middleware', () => {
  it("a capability-guarded route documents the guard's 403 without naming it", () => {
    expect(responsesOf([capabilityGuard('PHONE', 'read')], [400])).toEqual(['200', '400', '403']);
  });

  it('a route without such middleware documents only what it names', () => {
    expect(responsesOf([], [400, 404])).toEqual(['200', '400', '404']);
  });
});
