import { describe, expect, it } from 'vitest';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../domain/keyset-cursor';

const ID = '0b7f6c1e-2f4a-4d7b-9a57-3c1d2e4f5a6b';
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('keyset cursors', () => {
  it('carry the row position to the microsecond, both ways', () => {
    const position = { createdAt: '2026-03-01T10:00:00.123456Z', id: ID };
    expect(decodeKeysetCursor(encodeKeysetCursor(position))).toEqual(position);
  });

  it('still read a millisecond cursor issued before microseconds were kept', () => {
    expect(decodeKeysetCursor(encode(`2026-03-01T10:00:00.123Z|${ID}`))).toEqual({ createdAt: '2026-03-01T10:00:00.123Z', id: ID });
  });

  it.each([
    ['not base64 of anything', '%%%'],
    ['no id', encode('2026-03-01T10:00:00.123456Z')],
    ['an id that is not a UUID', encode('2026-03-01T10:00:00.123456Z|42')],
    ['a date without fraction', encode(`2026-03-01T10:00:00Z|${ID}`)],
    ['an impossible date', encode(`2026-13-45T10:00:00.123456Z|${ID}`)],
    ['a local time', encode(`2026-03-01T10:00:00.123456+02:00|${ID}`)],
    ['a third part', encode(`2026-03-01T10:00:00.123456Z|${ID}|x`)],
  ])('refuse %s as 400 invalid-cursor', (_name, cursor) => {
    expect(() => decodeKeysetCursor(cursor)).toThrow(expect.objectContaining({ code: 'invalid-cursor', status: 400 }));
  });
});
