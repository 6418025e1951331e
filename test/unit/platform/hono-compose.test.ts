// Hono's compose as patched (patches/hono+4.13.19.patch): a chain of layers that all answer
// synchronously settles synchronously; anything asynchronous in it makes the answer a promise,
// and what Hono promises about errors, a second next() and an unfinished context still holds.
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';

const errors: string[] = [];

function appWith(...layers: MiddlewareHandler[]) {
  const app = new Hono();
  app.onError((err, c) => {
    errors.push(err.message);
    return c.text(`failed: ${err.message}`, 500);
  });
  // The outer layer's work after next() must run on every path, as the request layer's metrics do.
  app.use('*', ((c, next) => {
    const rest: unknown = next();
    const after = () => c.header('X-After', 'yes');
    if (rest instanceof Promise) return rest.then(after);
    after();
    return undefined;
  }) as MiddlewareHandler);
  app.get('/r', ...(layers as [MiddlewareHandler, MiddlewareHandler]));
  return app;
}

const syncLayer = ((_c, next) => next()) as MiddlewareHandler;
const asyncLayer: MiddlewareHandler = async (_c, next) => {
  await new Promise((r) => setTimeout(r, 1));
  await next();
};
const handler: MiddlewareHandler = (c) => c.json({ ok: true }) as unknown as Promise<Response>;

async function answerOf(app: Hono, path = '/r') {
  const out = app.request(path);
  const res = await out;
  return { sync: !(out instanceof Promise), status: res.status, after: res.headers.get('X-After'), body: await res.text() };
}

describe('Hono compose (patched)', () => {
  it('answers a chain of synchronous layers synchronously, the outer layer finishing after the inner ones', async () => {
    expect(await answerOf(appWith(syncLayer, handler))).toEqual({ sync: true, status: 200, after: 'yes', body: '{"ok":true}' });
  });

  it('answers with a promise once a layer is asynchronous, with the same result', async () => {
    expect(await answerOf(appWith(asyncLayer, handler))).toEqual({ sync: false, status: 200, after: 'yes', body: '{"ok":true}' });
    const asyncHandler: MiddlewareHandler = async (c) => c.json({ ok: true });
    expect(await answerOf(appWith(syncLayer, asyncHandler))).toEqual({ sync: false, status: 200, after: 'yes', body: '{"ok":true}' });
  });

  it('hands an error to onError whether it is thrown synchronously or rejected', async () => {
    const throws: MiddlewareHandler = () => {
      throw new Error('sync boom');
    };
    const rejects: MiddlewareHandler = async () => {
      throw new Error('async boom');
    };
    expect(await answerOf(appWith(syncLayer, throws))).toMatchObject({ status: 500, after: 'yes', body: 'failed: sync boom' });
    expect(await answerOf(appWith(asyncLayer, rejects))).toMatchObject({ status: 500, after: 'yes', body: 'failed: async boom' });
    expect(errors).toEqual(expect.arrayContaining(['sync boom', 'async boom']));
  });

  it('still refuses a second next() and a context that nothing finished', async () => {
    const twice: MiddlewareHandler = async (_c, next) => {
      await next();
      await next();
    };
    expect(await answerOf(appWith(twice, handler))).toMatchObject({ status: 500, body: 'failed: next() called multiple times' });
    const bare = new Hono();
    bare.onError((err, c) => c.text(`failed: ${err.message}`, 500));
    const callsOn = ((_c, next) => {
      void next();
    }) as MiddlewareHandler;
    bare.get('/r', callsOn, (() => undefined) as unknown as MiddlewareHandler);
    expect((await answerOf(bare)).body).toContain('failed: Context is not finalized');
  });

  it('answers 404 for a path no route matches, the outer layer included', async () => {
    expect(await answerOf(appWith(syncLayer, handler), '/nothing')).toMatchObject({ status: 404, after: 'yes' });
  });
});
