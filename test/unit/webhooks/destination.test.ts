// SSRF rules of a webhook destination (docs/webhooks.md "Destinations"): every refused kind of
// address, literal or behind a DNS name (a stubbed lookup, the one stand-in here), and what
// webhooks.allow-private-networks may and may not let through.
import { describe, expect, it } from 'vitest';
import { rangeMatcher } from '../../../domain/net/address-ranges';
import type { DestinationPolicy } from '../../../domain/webhooks/destination-rules';
import { checkDestination, DestinationRefused, type AddressLookup } from '../../../integrations/webhooks/destination';

const policy = (allowHttp = false, allowed: string[] = []): DestinationPolicy => ({ allowHttp, allowsPrivate: rangeMatcher(allowed) });

/** A lookup that answers from a table, as a DNS server would. */
const resolving =
  (table: Record<string, string[]>): AddressLookup =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(url: string, p: DestinationPolicy = policy(), lookup: AddressLookup = resolving({})) {
  try {
    await checkDestination(url, p, lookup);
  } catch (err) {
    if (err instanceof DestinationRefused) return err.refusal;
    throw err;
  }
  return null;
}

describe('webhook destination check', () => {
  it('accepts an https URL whose host resolves to public addresses only, and answers the address it checked', async () => {
    const lookup = resolving({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const d = await checkDestination('https://hooks.example.com:8443/in?x=1', policy(), lookup);
    expect(d).toMatchObject({ host: 'hooks.example.com', address: '93.184.216.34', family: 4 });
    expect(d.url.pathname).toBe('/in');
  });

  it('refuses http unless webhooks.allow-http, and any other scheme always', async () => {
    const lookup = resolving({ 'hooks.example.com': ['93.184.216.34'] });
    expect(await refusal('http://hooks.example.com/', policy(false), lookup)).toBe('scheme');
    expect(await refusal('http://hooks.example.com/', policy(true), lookup)).toBeNull();
    expect(await refusal('ftp://hooks.example.com/', policy(true), lookup)).toBe('scheme');
    expect(await refusal('file:///etc/passwd', policy(true), lookup)).toBe('scheme');
    expect(await refusal('not a url')).toBe('invalid-url');
  });

  it('refuses a user name or password in the URL', async () => {
    expect(await refusal('https://user:pw@hooks.example.com/', policy(), resolving({ 'hooks.example.com': ['93.184.216.34'] }))).toBe('credentials');
  });

  it.each([
    ['loopback', 'https://127.0.0.1/', 'loopback'],
    ['loopback, another address of 127/8', 'https://127.8.9.10/', 'loopback'],
    ['loopback written in hex (the URL parser makes it 127.0.0.1)', 'https://0x7f.1/', 'loopback'],
    ['loopback as one decimal number', 'https://2130706433/', 'loopback'],
    ['IPv6 loopback', 'https://[::1]/', 'loopback'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/', 'ipv4-mapped'],
    ['IPv4-mapped IPv6 of a public address', 'https://[::ffff:93.184.216.34]/', 'ipv4-mapped'],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:1]/', 'ipv4-mapped'],
    ['private 10/8', 'https://10.1.2.3/', 'private'],
    ['private 172.16/12', 'https://172.20.0.5/', 'private'],
    ['private 192.168/16', 'https://192.168.1.1/', 'private'],
    ['carrier-grade NAT', 'https://100.64.0.1/', 'private'],
    ['IPv6 unique local', 'https://[fd12:3456::1]/', 'private'],
    ['link-local', 'https://169.254.10.20/', 'link-local'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/', 'metadata'],
    ['the Alibaba metadata address', 'https://100.100.100.200/', 'metadata'],
    ['the AWS IPv6 metadata address', 'https://[fd00:ec2::254]/', 'metadata'],
    ['IPv6 link-local', 'https://[fe80::1]/', 'link-local'],
    ['multicast', 'https://224.0.0.1/', 'multicast'],
    ['IPv6 multicast', 'https://[ff02::1]/', 'multicast'],
    ['unspecified', 'https://0.0.0.0/', 'reserved'],
    ['broadcast', 'https://255.255.255.255/', 'reserved'],
    ['reserved 240/4', 'https://240.0.0.1/', 'reserved'],
    ['documentation range', 'https://192.0.2.10/', 'reserved'],
  ])('refuses %s', async (_what, url, expected) => {
    expect(await refusal(url)).toBe(expected);
  });

  it('refuses a DNS name resolving to a private address, and one resolving to a public and a private address', async () => {
    const lookup = resolving({ 'internal.example.com': ['10.0.0.7'], 'mixed.example.com': ['93.184.216.34', '192.168.0.4'], 'v6.example.com': ['::1'] });
    expect(await refusal('https://internal.example.com/', policy(), lookup)).toBe('private');
    expect(await refusal('https://mixed.example.com/', policy(), lookup)).toBe('private');
    expect(await refusal('https://v6.example.com/', policy(), lookup)).toBe('loopback');
  });

  it('refuses a name that does not resolve', async () => {
    expect(await refusal('https://nowhere.example.com/')).toBe('unresolvable');
    expect(await refusal('https://empty.example.com/', policy(), async () => [])).toBe('unresolvable');
  });

  it('webhooks.allow-private-networks lets listed ranges through, never link-local, metadata or mapped addresses', async () => {
    const p = policy(true, ['127.0.0.0/8', '10.20.0.0/16', '169.254.0.0/16', '::/0', '0.0.0.0/0']);
    expect(await refusal('http://127.0.0.1:8080/', p)).toBeNull();
    expect(await refusal('http://10.20.3.4/', p)).toBeNull();
    expect(await refusal('http://169.254.169.254/', p)).toBe('metadata');
    expect(await refusal('http://169.254.1.1/', p)).toBe('link-local');
    expect(await refusal('http://[fe80::1]/', p)).toBe('link-local');
    expect(await refusal('http://[::ffff:127.0.0.1]/', p)).toBe('ipv4-mapped');
    // Only what is listed: 127/8 alone does not open 10/8 or ::1.
    const narrow = policy(true, ['127.0.0.0/8']);
    expect(await refusal('http://10.20.3.4/', narrow)).toBe('private');
    expect(await refusal('http://[::1]/', narrow)).toBe('loopback');
  });
});
