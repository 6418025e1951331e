import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { jwtVerifierFor } from '../../integrations/identity/jwt-verifier';
import { mailerFor } from '../../integrations/mail/mailer';
import { compiledCalendarCacheFor } from '../../services/calendars/compiled-calendars';
import { createListeningAccessCache } from '../../workers/access-cache-listener';
import { bootstrapAccess } from '../../workers/bootstrap';
import { loadSettings, type Settings } from '../../workers/config';
import { createTestDatabase, type TestDatabase } from './db';
import { suiteLogger } from './suite-log';

export const OPERATOR = 'op-root';
export const INTERNAL_KEY = 'test-internal-key-0123456789';

export interface TestContext {
  db: TestDatabase;
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  settings: Settings;
}

export function testSettings(overrides: Partial<Settings> = {}): Settings {
  return loadSettings(
    {},
    {
      'access.operator-groups': ['platform-operators'],
      'access.operators': [OPERATOR],
      'internal.key': INTERNAL_KEY,
      'log.level': 'silent',
      ...overrides,
    },
  );
}

/** One app on its own database per test file; operator groups bootstrapped as at start-up. */
export function useTestApp(overrides: Partial<Settings> & { deps?: Partial<AppDeps> } = {}): TestContext {
  const ctx = {} as TestContext;
  let stopCache = async () => {};
  beforeAll(async () => {
    const { deps: extraDeps, ...settingOverrides } = overrides;
    ctx.settings = testSettings(settingOverrides);
    ctx.db = await createTestDatabase();
    await bootstrapAccess(ctx.db.db, ctx.settings);
    // The production access cache, invalidated by NOTIFY, so every API test exercises it.
    const access = await createListeningAccessCache(ctx.db.sql, ctx.settings['access.cache-ttl-ms'], pino({ level: 'silent' }));
    stopCache = access.stop;
    ctx.deps = {
      db: ctx.db.db,
      settings: ctx.settings,
      // Into the suite log, which test/log-scan searches for personal data after the run.
      logger: suiteLogger(),
      // Built from the suite's settings, so mail goes to the SMTP catcher they name.
      mailer: mailerFor(ctx.settings),
      readiness: {},
      accessCache: access.cache,
      // The production compiled-calendar cache, so every calendar test goes through it.
      compiledCalendars: compiledCalendarCacheFor(ctx.settings),
      // auth.mode=jwt: the production verifier on the settings' key set (a test may pass its own).
      jwtVerifier: jwtVerifierFor(ctx.settings),
      ...extraDeps,
    };
    ctx.app = createApp(ctx.deps);
  });
  afterAll(async () => {
    await stopCache();
    await ctx.db?.drop();
  });
  return ctx;
}

export interface Who {
  user: string;
  tenant?: string;
  name?: string;
  email?: string;
}

/** A small client over app.request() with identity headers, JSON bodies and problem checks. */
export function client(ctx: TestContext) {
  const call = async (method: string, path: string, who: Who | null, body?: unknown, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { ...headers };
    if (who) {
      h['X-User-Id'] = who.user;
      if (who.tenant) h['X-Tenant-Id'] = who.tenant;
      if (who.name) h['X-User-Name'] = who.name;
      if (who.email) h['X-User-Email'] = who.email;
    }
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    const res = await ctx.app.request(path, { method, headers: h, body: payload });
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  };
  return {
    call,
    get: (path: string, who: Who | null, headers?: Record<string, string>) => call('GET', path, who, undefined, headers),
    post: (path: string, who: Who | null, body?: unknown, headers?: Record<string, string>) =>
      call('POST', path, who, body, headers),
    put: (path: string, who: Who | null, body?: unknown, headers?: Record<string, string>) =>
      call('PUT', path, who, body, headers),
    del: (path: string, who: Who | null, headers?: Record<string, string>) => call('DELETE', path, who, undefined, headers),
  };
}
