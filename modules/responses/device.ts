/**
 * The first-party device cookie (ADR 032): a random id the edge sets on the first counted request.
 * It counts this browser's requests for the rate limits and its submissions for the fraud checks
 * (ADR 050), and nothing else.
 */
export const DEVICE_COOKIE = 'rl_client';
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** The device id in a Cookie header, or null when absent or malformed. */
export function deviceIdFromCookies(header: string | null | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === DEVICE_COOKIE) {
      const value = rest.join('=');
      return DEVICE_ID.test(value) ? value : null;
    }
  }
  return null;
}
