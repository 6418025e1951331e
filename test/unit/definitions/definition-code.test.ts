import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, codeDate, definitionCodePattern, generateDefinitionCode } from '../../../domain/definitions/definition-code';

describe('definition codes', () => {
  it('are the prefix, 4 characters and DDMMMYY of the UTC date', () => {
    const at = new Date('2026-03-05T23:30:00-02:00'); // 6 March in UTC
    expect(codeDate(at)).toBe('06MAR26');
    let i = 0;
    expect(generateDefinitionCode('FM-', at, () => i++)).toBe('FM-ABCD06MAR26');
    expect(codeDate(new Date('2031-12-31T00:00:00Z'))).toBe('31DEC31');
  });

  it('use an alphabet without look-alikes and match their pattern', () => {
    expect(CODE_ALPHABET).not.toMatch(/[01IO]/);
    const pattern = definitionCodePattern('FM-');
    for (let n = 0; n < 200; n++) {
      const code = generateDefinitionCode('FM-', new Date(Date.UTC(2026, n % 12, (n % 28) + 1)), (k) => Math.floor(Math.random() * k));
      expect(code).toMatch(pattern);
    }
    for (const bad of ['FM-ABC06MAR26', 'FM-ABCD32MAR26', 'FM-ABCD06MRZ26', 'SG-ABCD06MAR26', 'FM-abcd06MAR26', 'FM-ABCD06MAR2']) {
      expect(bad).not.toMatch(pattern);
    }
  });
});
