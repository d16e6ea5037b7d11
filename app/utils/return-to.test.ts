import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

describe('safeReturnTo', () => {
  it.each([
    ['/profile', '/profile'],
    ['/survey-builder?surveyId=abc#top', '/survey-builder?surveyId=abc#top'],
    ['/dashboard', '/dashboard'],
  ])('keeps the same-origin path %s', (input, out) => {
    expect(safeReturnTo(input)).toBe(out);
  });

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'profile', '', '/\tx', '/auth', '/api/auth/user', null, 42])(
    'refuses %s',
    (input) => {
      expect(safeReturnTo(input)).toBeNull();
    },
  );
});
