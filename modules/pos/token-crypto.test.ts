import { describe, expect, it } from 'vitest';
import { decryptToken, encryptToken, TokenDecryptionError } from './token-crypto.ts';

const key = Buffer.alloc(32, 3).toString('base64');
const other = Buffer.alloc(32, 4).toString('base64');
const business = '5f0c2f5e-9a51-4c53-9d6b-1f0f6c7d8e9a';

describe('tokens at rest', () => {
  it('round-trips, with a fresh IV each time and no plain text in the stored form', () => {
    const a = encryptToken('EAAAl-secret-access-token', key, business);
    const b = encryptToken('EAAAl-secret-access-token', key, business);
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(a.startsWith('v1.')).toBe(true);
    expect(decryptToken(a, key, business)).toBe('EAAAl-secret-access-token');
  });

  it('refuses another key, another business, a damaged value and plain text', () => {
    const stored = encryptToken('token', key, business);
    expect(() => decryptToken(stored, other, business)).toThrow(TokenDecryptionError);
    expect(() => decryptToken(stored, key, '00000000-0000-4000-8000-000000000000')).toThrow(TokenDecryptionError);
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptToken(parts.join('.'), key, business)).toThrow(TokenDecryptionError);
    expect(() => decryptToken('EAAAl-plain', key, business)).toThrow(TokenDecryptionError);
  });
});
