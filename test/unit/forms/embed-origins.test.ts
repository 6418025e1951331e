import { describe, expect, it } from 'vitest';
import { frameAncestors, sanitiseEmbedOrigins } from '../../../domain/forms/embed-origins';

describe('embed origin sanitiser', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://Shop.Example/', 'https://shop.example'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['https://shop.example:443', 'https://shop.example'],
    ['https://[::1]:9443', 'https://[::1]:9443'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1', 'http://127.0.0.1'],
  ])('keeps %s as %s', (given, kept) => {
    expect(sanitiseEmbedOrigins([given])).toEqual({ origins: [kept], dropped: [] });
  });

  it.each([
    'http://shop.example',
    'http://192.168.1.10:8080',
    'https://shop.example/path',
    'https://shop.example?x=1',
    'https://shop.example#top',
    'https://user:pw@shop.example',
    'https://*.shop.example',
    'https://shop.example;script-src',
    'https://shop.example https://evil.example',
    'javascript:alert(1)',
    'data:text/html,x',
    "'self'",
    '*',
    'ftp://shop.example',
    '',
  ])('drops %j with a message naming it', (given) => {
    const { origins, dropped } = sanitiseEmbedOrigins(['https://ok.example', given]);
    expect(origins).toEqual(['https://ok.example']);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ index: 1, origin: given });
    expect(dropped[0]!.message).toContain(JSON.stringify(given));
  });

  it('de-duplicates after canonicalising, keeping the first position', () => {
    expect(sanitiseEmbedOrigins(['https://b.example', 'https://a.example', 'https://B.example/']).origins).toEqual(['https://b.example', 'https://a.example']);
  });

  it("frame-ancestors lists the kept origins, or 'none' when nothing is kept", () => {
    expect(frameAncestors(['https://a.example', 'http://evil.example', 'http://localhost:5173'])).toBe('frame-ancestors https://a.example http://localhost:5173');
    expect(frameAncestors([])).toBe("frame-ancestors 'none'");
    expect(frameAncestors(['http://evil.example'])).toBe("frame-ancestors 'none'");
  });
});
