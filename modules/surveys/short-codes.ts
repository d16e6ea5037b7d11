/**
 * A survey's short code (issue 27, "short links in sight and in print"; ADR 082): the `{code}` of
 * `/s/{code}`, the link an owner shares, prints on the flyer and encodes in the QR code instead of
 * the public path with its two UUIDs.
 *
 * Nine characters from a 31-character alphabet without look-alikes (no 0/o, 1/l/i): 9 x log2(31)
 * = 44.6 bits, drawn from the Web Crypto CSPRNG (Node and browsers alike) with rejection sampling,
 * so every character is equally likely. Lower case is the stored and printed form; a code typed in
 * capitals matches too (`parseShortCode`). The database holds them under a unique constraint and
 * makes one itself (`survey_short_code()`, migration `Migration20261127140000SurveyShortCodes`) for
 * any insert that brings none; that function uses this same alphabet and length.
 *
 * Pure and browser-safe (no `node:` import): the face exports it.
 */

/** The characters of a short code: digits 2-9 and a-z without i, l and o. */
export const SHORT_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const SHORT_CODE_LENGTH = 9;

/** Bits of a random code: 44.6. */
export const SHORT_CODE_BITS = SHORT_CODE_LENGTH * Math.log2(SHORT_CODE_ALPHABET.length);

const SHORT_CODE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

/** Bytes at or above this are drawn again: 248 = 8 x 31, so `byte % 31` is uniform below it. */
const ACCEPT_BELOW = 256 - (256 % SHORT_CODE_ALPHABET.length);

/** Fills `bytes` from a CSPRNG (`crypto.getRandomValues` unless a test gives its own). */
export type RandomBytes = (bytes: Uint8Array) => Uint8Array;

const cryptoRandom: RandomBytes = (bytes) => globalThis.crypto.getRandomValues(bytes);

/** A new random short code, such as `k7m2qx9ab`. */
export function newShortCode(random: RandomBytes = cryptoRandom): string {
  let code = '';
  while (code.length < SHORT_CODE_LENGTH) {
    const bytes = random(new Uint8Array(16));
    for (const byte of bytes) {
      if (byte >= ACCEPT_BELOW) continue;
      code += SHORT_CODE_ALPHABET[byte % SHORT_CODE_ALPHABET.length];
      if (code.length === SHORT_CODE_LENGTH) break;
    }
  }
  return code;
}

/** Whether `value` is a short code as stored (lower case). */
export const isShortCode = (value: string): boolean => SHORT_CODE.test(value);

/**
 * The stored form of a code from a link (`K7M2QX9AB` and `k7m2qx9ab` alike), or null when it cannot
 * be one (wrong length, a character outside the alphabet): such a link is "Survey Not Found" without
 * a database lookup.
 */
export function parseShortCode(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length !== SHORT_CODE_LENGTH) return null;
  const code = value.toLowerCase();
  return isShortCode(code) ? code : null;
}
