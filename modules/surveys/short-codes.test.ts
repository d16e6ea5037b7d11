import { describe, expect, it } from 'vitest';
import { isShortCode, newShortCode, parseShortCode, SHORT_CODE_ALPHABET, SHORT_CODE_BITS, SHORT_CODE_LENGTH } from './short-codes.ts';

describe('short codes (ADR 082)', () => {
  it('an alphabet without look-alikes, at least 40 bits', () => {
    for (const ch of '01ilo') expect(SHORT_CODE_ALPHABET).not.toContain(ch);
    expect(new Set(SHORT_CODE_ALPHABET).size).toBe(SHORT_CODE_ALPHABET.length);
    expect(SHORT_CODE_ALPHABET).toBe(SHORT_CODE_ALPHABET.toLowerCase());
    expect(SHORT_CODE_BITS).toBeGreaterThanOrEqual(40);
  });

  it('new codes are well formed and do not repeat', () => {
    const codes = Array.from({ length: 5000 }, () => newShortCode());
    for (const code of codes) expect(isShortCode(code), code).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('every character is reachable and bytes above 247 are drawn again (no modulo bias)', () => {
    // Bytes 0..30 map to the alphabet in order; 248..255 are skipped.
    const script = [248, 255, 0, 1, 2, 30, 250, 3, 4, 5, 6];
    const random = (bytes: Uint8Array) => {
      bytes.fill(0);
      script.splice(0, bytes.length).forEach((b, i) => (bytes[i] = b));
      return bytes;
    };
    expect(newShortCode(random)).toBe('234z56782');
    const seen = new Set(Array.from({ length: 3000 }, () => newShortCode()).join(''));
    expect([...seen].sort().join('')).toBe(SHORT_CODE_ALPHABET);
  });

  it('parses what a link carries: lower or upper case; anything else is no code', () => {
    const code = newShortCode();
    expect(parseShortCode(code)).toBe(code);
    expect(parseShortCode(code.toUpperCase())).toBe(code);
    for (const bad of ['', 'abc', 'x'.repeat(SHORT_CODE_LENGTH + 1), 'abcdefgh0', 'abcdefghl', 'abcdefgh1', 'abcdefgho', 'abcd efgh', 'abcdefgh%', '00000000-0000-4000-8000-000000000000', null, undefined]) {
      expect(parseShortCode(bad), String(bad)).toBeNull();
    }
  });
});
