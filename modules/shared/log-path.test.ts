import { describe, expect, it } from 'vitest';
import { loggablePath } from './log-path.ts';

describe('loggablePath', () => {
  it('writes the secret of a one-time link as :token', () => {
    expect(loggablePath('/reset-password/AbC-123_xyz')).toBe('/reset-password/:token');
    expect(loggablePath('/reward-confirm/tok3n')).toBe('/reward-confirm/:token');
    expect(loggablePath('/email-verified/tok3n')).toBe('/email-verified/:token');
    expect(loggablePath('/api/verify-email/tok3n')).toBe('/api/verify-email/:token');
  });
  it('leaves other paths alone', () => {
    expect(loggablePath('/email-verified')).toBe('/email-verified');
    expect(loggablePath('/survey/public/b/s')).toBe('/survey/public/b/s');
    expect(loggablePath('/')).toBe('/');
  });
});
