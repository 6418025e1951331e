import pino, { type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildren } from '../../../api/middleware/request-logger';
import { createLogger } from '../../../workers/logger';

/** A production logger writing into an array, without the time (it differs between two lines). */
function captured(level: 'info' | 'error' = 'info') {
  const lines: object[] = [];
  const logger = createLogger({ 'log.level': level }, 'test', { write: (s: string) => void lines.push(JSON.parse(s) as object) });
  const drop = ({ time: _time, ...rest }: Record<string, unknown>) => rest;
  return { logger, lines: () => lines.map((l) => drop(l as Record<string, unknown>)) };
}

/** What a logger writes for a fixed sequence of calls, its children included; answers its bindings. */
function script(log: Logger) {
  log.info({ a: 1 }, 'plain');
  log.warn({ secret: 's3cr3t', nested: { password: 'p' } }, 'redacted');
  log.error({ err: new Error('boom') }, 'with an error');
  const child = log.child({ component: 'part' });
  child.info('from a child');
  child.child({ deeper: true }).debug('below the level');
  const bindings = log.bindings();
  log.setBindings({ extra: 'x' });
  log.info('after setBindings');
  return bindings;
}

describe('request loggers built when they first write', () => {
  it('write the lines pino.child would write, children, redaction and bindings included', () => {
    const eager = captured();
    const lazy = captured();
    const eagerBindings = script(eager.logger.child({ requestId: 'r-1', traceId: 't' }));
    const lazyBindings = script(lazyChildren(lazy.logger)({ requestId: 'r-1', traceId: 't' }));
    expect(lazyBindings).toEqual(eagerBindings);
    expect(lazyBindings).toMatchObject({ requestId: 'r-1', traceId: 't' });
    const strip = (lines: object[]) => lines.map((l) => ({ ...l, err: l && 'err' in l ? { message: (l.err as { message: string }).message } : undefined }));
    expect(strip(lazy.lines())).toEqual(strip(eager.lines()));
    expect(lazy.lines()).toHaveLength(5);
  });

  it('build no pino child for a request that writes nothing, and one when it first writes', () => {
    const { logger } = captured('error');
    let built = 0;
    const parent = Object.assign(Object.create(logger) as Logger, {
      child(this: Logger, ...args: Parameters<Logger['child']>) {
        built++;
        return logger.child(...args);
      },
    });
    const children = lazyChildren(parent);
    const quiet = children({ requestId: 'q' });
    expect(quiet.isLevelEnabled('info')).toBe(false);
    quiet.info('below the level');
    expect(built).toBe(0);
    children({ requestId: 'w' }).error('written');
    expect(built).toBe(1);
  });

  it('keep a level set on one request logger to that request', () => {
    const { logger, lines } = captured('info');
    const children = lazyChildren(logger);
    const verbose = children({ requestId: 'v' });
    verbose.level = 'debug';
    verbose.debug('shown');
    children({ requestId: 'o' }).debug('not shown');
    expect(lines().map((l) => (l as { msg: string }).msg)).toEqual(['shown']);
    expect(pino.levels.values[logger.level]).toBe(30);
  });
});
