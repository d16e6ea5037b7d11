/**
 * Point-of-sale tokens at rest (issue 5): AES-256-GCM with the configured TOKEN_ENCRYPTION_KEY
 * (32 bytes, base64). Stored form: `v1.<iv>.<tag>.<ciphertext>`, each base64url; a fresh 12-byte IV
 * per value. The business id is bound as associated data, so a token copied to another business's
 * row does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DomainError } from '../shared/errors.ts';

const VERSION = 'v1';

function keyOf(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new TypeError('TOKEN_ENCRYPTION_KEY must be 32 bytes (base64)');
  return key;
}

export function encryptToken(plain: string, keyBase64: string, businessId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyBase64), iv);
  cipher.setAAD(Buffer.from(businessId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export class TokenDecryptionError extends DomainError {
  static override readonly kind = 'TokenDecryptionError';
}

/** The plain token; throws TokenDecryptionError for a wrong key, another business's value or a damaged one. */
export function decryptToken(stored: string, keyBase64: string, businessId: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new TokenDecryptionError('not an encrypted token');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(keyBase64), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(businessId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new TokenDecryptionError('the token does not decrypt with this key');
  }
}
