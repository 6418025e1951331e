// The client address of the rate limits and the audit: socket peer, X-Forwarded-For believed only
// from trusted proxies named by address or CIDR block.
import { describe, expect, it } from 'vitest';
import { clientAddressOf, clientHopOf } from '../../../api/middleware/client-address';
import { loadSettings } from '../../../workers/config';

describe('client address', () => {
  it('is the socket peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.9', '1.2.3.4', [])).toBe('203.0.113.9');
    expect(clientAddressOf('::ffff:203.0.113.9', undefined, [])).toBe('203.0.113.9');
    expect(clientAddressOf(undefined, '1.2.3.4', [])).toBe('unknown');
  });

  it('reads X-Forwarded-For from the right past exact trusted addresses', () => {
    expect(clientAddressOf('10.0.0.1', '6.6.6.6, 198.51.100.7, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('198.51.100.7');
    expect(clientAddressOf('10.0.0.3', '198.51.100.7', ['10.0.0.1'])).toBe('10.0.0.3');
    expect(clientAddressOf('10.0.0.1', undefined, ['10.0.0.1'])).toBe('10.0.0.1');
  });

  it('trusts proxies inside CIDR blocks, IPv4 and IPv6, mapped addresses included', () => {
    const trusted = ['10.0.0.0/8', '2001:db8:100::/48'];
    expect(clientAddressOf('10.200.3.4', '198.51.100.7, 10.9.9.9', trusted)).toBe('198.51.100.7');
    expect(clientAddressOf('::ffff:10.200.3.4', '198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddressOf('2001:db8:100:5::1', '2001:DB8:200::0:7', trusted)).toBe('2001:db8:200::7');
    expect(clientAddressOf('2001:db8:101::1', '198.51.100.7', trusted)).toBe('2001:db8:101::1');
    expect(clientAddressOf('11.0.0.1', '198.51.100.7', trusted)).toBe('11.0.0.1');
    expect(clientAddressOf('192.168.1.1', '198.51.100.7', ['::ffff:192.168.0.0/112'])).toBe('198.51.100.7');
  });

  it('stops at the first untrusted hop even when it is not an address, and falls back to the leftmost', () => {
    expect(clientAddressOf('10.0.0.1', 'garbage', ['10.0.0.0/8'])).toBe('garbage');
    expect(clientAddressOf('10.0.0.1', '10.0.0.5, 10.0.0.6', ['10.0.0.0/8'])).toBe('10.0.0.5');
  });

  it('tells whether the peer was a trusted proxy (the rule for gateway headers)', () => {
    expect(clientHopOf('10.0.0.1', undefined, ['10.0.0.0/30']).viaTrustedProxy).toBe(true);
    expect(clientHopOf('10.0.0.4', undefined, ['10.0.0.0/30']).viaTrustedProxy).toBe(false);
  });

  it('http.trusted-proxies accepts addresses and CIDR blocks and refuses anything else at start-up', () => {
    expect(loadSettings({ HTTP_TRUSTED_PROXIES: '10.0.0.0/8, 203.0.113.7 ,2001:db8::/32' })['http.trusted-proxies']).toEqual([
      '10.0.0.0/8',
      '203.0.113.7',
      '2001:db8::/32',
    ]);
    expect(loadSettings({})['http.trusted-proxies']).toEqual([]);
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1:80', '0x7f.1'])
      expect(() => loadSettings({ HTTP_TRUSTED_PROXIES: bad }), bad).toThrow(/HTTP_TRUSTED_PROXIES/);
  });
});
