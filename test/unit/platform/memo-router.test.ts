import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { MemoRouter } from '../../../api/memo-router';

/** An app on the memo router and the same app on Hono's default one: every answer must agree. */
function twins() {
  const build = (app: Hono) => {
    app.use('*', async (c, next) => {
      await next();
      c.res.headers.set('X-Layers', 'all');
    });
    app.use('/api/*', (c, next) => next());
    app.get('/api/items/search', (c) => c.json({ route: 'search' }));
    app.get('/api/items/:id', (c) => c.json({ route: 'item', id: c.req.param('id') }));
    app.post('/api/items/:id', (c) => c.json({ route: 'post item', id: c.req.param('id') }));
    app.get('/api/items/:id/parts/:part', (c) => c.json({ route: 'part', ...c.req.param() }));
    app.get('/files/*', (c) => c.json({ route: 'files', path: c.req.path }));
    app.get('/api/me', (c) => c.json({ route: 'me' }));
    return app;
  };
  return { memo: build(new Hono({ router: new MemoRouter() })), plain: build(new Hono()) };
}

const answer = async (app: Hono, method: string, path: string) => {
  const res = await app.request(path, { method });
  return { status: res.status, layers: res.headers.get('X-Layers'), body: await res.text() };
};

describe('the memo router', () => {
  it('answers every request as the default router does, a path asked again included', async () => {
    const { memo, plain } = twins();
    const requests: Array<[string, string]> = [
      ['GET', '/api/me'],
      ['GET', '/api/items/search'],
      ['GET', '/api/items/a1'],
      ['GET', '/api/items/b2'],
      ['POST', '/api/items/a1'],
      ['GET', '/api/items/a1/parts/p9'],
      ['GET', '/files/x/y.txt'],
      ['GET', '/no/such/path'],
      ['DELETE', '/api/me'],
      ['HEAD', '/api/me'],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [method, path] of requests) expect(await answer(memo, method, path)).toEqual(await answer(plain, method, path));
    }
  });

  it('never answers one request with the parameters of another of the same route', async () => {
    const { memo } = twins();
    for (const id of ['one', 'two', 'one', 'three']) expect(JSON.parse((await answer(memo, 'GET', `/api/items/${id}`)).body)).toEqual({ route: 'item', id });
  });

  it('stays right past its bounds on remembered paths and on their length', async () => {
    const { memo, plain } = twins();
    for (let i = 0; i < 2_500; i++) await memo.request(`/unknown/${i}`);
    expect(await answer(memo, 'GET', '/api/me')).toEqual(await answer(plain, 'GET', '/api/me'));
    expect(await answer(memo, 'GET', '/unknown/7')).toEqual(await answer(plain, 'GET', '/unknown/7'));
    const long = `/files/${'x'.repeat(300)}`;
    for (let i = 0; i < 2; i++) expect(await answer(memo, 'GET', long)).toEqual(await answer(plain, 'GET', long));
  });
});
