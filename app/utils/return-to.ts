/**
 * A same-origin path to go to after sign-in, or null. Rejects absolute URLs, protocol-relative
 * `//host`, backslash tricks (`/\host`) and control characters.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(value)) return null;
  try {
    const url = new URL(value, 'http://rewardloop.invalid');
    if (url.origin !== 'http://rewardloop.invalid') return null;
    if (url.pathname.startsWith('/auth') || url.pathname.startsWith('/api/')) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
