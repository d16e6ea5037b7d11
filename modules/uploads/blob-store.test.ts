import { describe, expect, it } from 'vitest';
import { InvalidBlobKeyError, isBlobKey, newBlobKey, parseBlobKey } from './blob-store.ts';

describe('blob keys', () => {
  it('are yyyy/mm/<uuid>.<ext>, dated in UTC, with the extension of the content type', () => {
    const key = newBlobKey('image/webp', new Date('2026-01-31T23:30:00-05:00'));
    expect(key).toMatch(/^2026\/02\/[0-9a-f-]{36}\.webp$/);
    expect(newBlobKey('image/jpeg', new Date('2025-12-01T00:00:00Z'))).toMatch(/^2025\/12\/[0-9a-f-]{36}\.jpg$/);
    expect(isBlobKey(key)).toBe(true);
    expect(parseBlobKey(key)).toEqual({ contentType: 'image/webp' });
  });

  it('are new every time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => newBlobKey('image/webp')));
    expect(keys.size).toBe(1000);
  });

  it('refuse content types the store does not hold', () => {
    expect(() => newBlobKey('image/svg+xml' as never)).toThrow(TypeError);
  });

  const good = newBlobKey('image/webp', new Date('2026-03-04T00:00:00Z'));
  it.each([
    '../etc/passwd',
    `../${good}`,
    `2026/03/../../${good.slice(8)}`,
    `/${good}`,
    `/etc/passwd`,
    `${good}\0.png`,
    good.replaceAll('/', '\\'),
    `2026\\03\\${good.slice(8)}`,
    good.toUpperCase(),
    good.replace('.webp', '.svg'),
    good.replace('.webp', '.webp/'),
    `./${good}`,
    `2026/13/${good.slice(8)}`,
    `2026/3/${good.slice(8)}`,
    `2026/03/03/${good.slice(8)}`,
    `${good} `,
    `${good}\n`,
    'C:\\Windows\\win.ini',
    'file:///etc/passwd',
    '',
  ])('%j is not a key', (key) => {
    expect(isBlobKey(key)).toBe(false);
    expect(() => parseBlobKey(key)).toThrow(InvalidBlobKeyError);
  });

  it('non-strings are not keys', () => {
    expect(isBlobKey(undefined)).toBe(false);
    expect(isBlobKey(42)).toBe(false);
  });
});
