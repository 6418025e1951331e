// IP-risk and geo of the signing audit: fixed addresses against the offline classification and
// the GeoLite2 country database of the installed geoip-country version; gateway headers only
// from trusted proxies.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../api/deps';
import type { AppEnv } from '../../../api/env';
import { clientContext } from '../../../api/middleware/client-context';
import { ipRisk } from '../../../domain/net/ip-risk';
import { countryOf } from '../../../integrations/geo/country-database';
import { loadSettings } from '../../../workers/config';

describe('IP-risk', () => {
  const cases: [string, string | null][] = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['::ffff:192.168.0.10', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['169.254.169.254', 'reserved'],
    ['fe80::1', 'reserved'],
    ['100.64.0.1', 'reserved'],
    ['100.127.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2002:c000:204::1', 'public'],
    ['not-an-address', null],
    ['10.0.0.1:80', null],
    ['', null],
  ];
  it.each(cases)('%s is %s', (ip, risk) => expect(ipRisk(ip)).toBe(risk));
});

describe('offline country database', () => {
  it('places well-known provider addresses in their countries', () => {
    expect(countryOf('8.8.8.8')).toBe('US');
    expect(countryOf('2001:4860:4860::8888')).toBe('US');
    expect(countryOf('193.99.144.80')).toBe('DE'); // heise.de
    expect(countryOf('133.242.0.3')).toBe('JP'); // SAKURA Internet
  });
  it('has no country for private or reserved space', () => {
    expect(countryOf('10.0.0.1')).toBeNull();
    expect(countryOf('192.0.2.1')).toBeNull();
  });
});

describe('clientContext', () => {
  function probe(env: Record<string, string>) {
    const deps = { settings: loadSettings(env) } as unknown as AppDeps;
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('deps', deps);
      await next();
    });
    app.get('/', (c) => c.json(clientContext(c)));
    return async (socket: string, headers: Record<string, string> = {}) =>
      (await app.request('/', { headers }, { incoming: { socket: { remoteAddress: socket } } })).json();
  }

  it('a direct public client: its address, user agent, public, the database country', async () => {
    const ask = probe({});
    expect(await ask('::ffff:8.8.8.8', { 'user-agent': 'UA/1', 'x-forwarded-for': '10.0.0.1', 'cf-ipcountry': 'FR' })).toEqual({
      ip: '8.8.8.8',
      userAgent: 'UA/1',
      ipRisk: 'public',
      geo: 'US',
    });
  });

  it('a private or loopback client has no country', async () => {
    const ask = probe({});
    expect(await ask('192.168.1.5')).toEqual({ ip: '192.168.1.5', userAgent: null, ipRisk: 'private', geo: null });
    expect(await ask('::1')).toMatchObject({ ipRisk: 'loopback', geo: null });
  });

  it('behind a trusted proxy: the forwarded client and the gateway country first', async () => {
    const ask = probe({ HTTP_TRUSTED_PROXIES: '10.0.0.0/8' });
    expect(await ask('10.1.1.1', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'fr' })).toMatchObject({ ip: '8.8.8.8', ipRisk: 'public', geo: 'FR' });
    expect(await ask('10.1.1.1', { 'x-forwarded-for': '8.8.8.8', 'cloudfront-viewer-country': 'CH' })).toMatchObject({ geo: 'CH' });
    // Tor and unknown are no countries: the database answers.
    expect(await ask('10.1.1.1', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'T1' })).toMatchObject({ geo: 'US' });
    expect(await ask('10.1.1.1', { 'x-forwarded-for': '8.8.8.8', 'x-vercel-ip-country': 'XX' })).toMatchObject({ geo: 'US' });
  });

  it('a configured geo header replaces the known ones; the database can be turned off', async () => {
    const ask = probe({ HTTP_TRUSTED_PROXIES: '10.0.0.1', HTTP_GEO_HEADER: 'X-Country', HTTP_GEO_DATABASE: 'false' });
    expect(await ask('10.0.0.1', { 'x-forwarded-for': '8.8.8.8', 'x-country': 'nl', 'cf-ipcountry': 'FR' })).toMatchObject({ geo: 'NL' });
    expect(await ask('10.0.0.1', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'FR' })).toMatchObject({ geo: null });
  });

  it('a forwarded hop that is no address is recorded as unknown', async () => {
    const ask = probe({ HTTP_TRUSTED_PROXIES: '10.0.0.1' });
    expect(await ask('10.0.0.1', { 'x-forwarded-for': 'garbage' })).toEqual({ ip: null, userAgent: null, ipRisk: null, geo: null });
  });
});
