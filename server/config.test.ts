import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/rewardloop-config-test', SESSION_SECRET: 'x'.repeat(32) };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({ NODE_ENV: 'development', PORT: 3000, APP_URL: 'http://localhost:3000', DB_POOL_MAX: 10, ALLOW_DEMO_ADAPTERS: false });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c).toMatchObject({ BODY_LIMIT_BYTES: 1_000_000, UPLOAD_BODY_LIMIT_BYTES: 14 * 1024 * 1024, SCREENSHOT_VERIFIER: 'ocr' });
  });

  it('takes the fake screenshot verifier and a larger upload body limit when asked', () => {
    expect(loadConfig({ ...base, SCREENSHOT_VERIFIER: 'fake', UPLOAD_BODY_LIMIT_BYTES: '20000000' })).toMatchObject({
      SCREENSHOT_VERIFIER: 'fake',
      UPLOAD_BODY_LIMIT_BYTES: 20_000_000,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ NODE_ENV: 'production', SESSION_SECRET: '' }, 'SESSION_SECRET'],
    [{ GOOGLE_CLIENT_ID: 'id-only' }, 'GOOGLE_CLIENT_SECRET'],
    [{ ALLOW_DEMO_ADAPTERS: 'maybe' }, 'ALLOW_DEMO_ADAPTERS'],
    [{ SCREENSHOT_VERIFIER: 'vision' }, 'SCREENSHOT_VERIFIER'],
    [{ UPLOAD_BODY_LIMIT_BYTES: 'lots' }, 'UPLOAD_BODY_LIMIT_BYTES'],
    [{ NODE_ENV: 'production' }, 'TOKEN_ENCRYPTION_KEY'],
    [{ TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'TOKEN_ENCRYPTION_KEY'],
    [{ POS: 'clover' }, 'POS'],
    [{ POS: 'square' }, 'SQUARE_APPLICATION_ID'],
    [{ GIFT_CARDS: 'square' }, 'GIFT_CARDS'],
  ])('rejects %o naming %s', (env, name) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`^\\s+${name}:`, 'm'));
  });

  it('picks Square adapters from POS, and derives a token key outside production', () => {
    const demo = loadConfig(base);
    expect(demo).toMatchObject({ POS: 'demo', GIFT_CARDS: 'test', SQUARE_ENVIRONMENT: 'sandbox' });
    expect(Buffer.from(demo.TOKEN_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(loadConfig(base).TOKEN_ENCRYPTION_KEY).toBe(demo.TOKEN_ENCRYPTION_KEY);
    expect(loadConfig({ ...base, SESSION_SECRET: 'y'.repeat(32) }).TOKEN_ENCRYPTION_KEY).not.toBe(demo.TOKEN_ENCRYPTION_KEY);
    const key = Buffer.alloc(32, 9).toString('base64');
    const square = loadConfig({ ...base, POS: 'square', SQUARE_APPLICATION_ID: 'sq0idp-x', SQUARE_APPLICATION_SECRET: 'sq0csp-y', TOKEN_ENCRYPTION_KEY: key });
    expect(square).toMatchObject({ POS: 'square', GIFT_CARDS: 'square', TOKEN_ENCRYPTION_KEY: key });
  });

  it('never echoes a secret value in the message', () => {
    try {
      loadConfig({ ...base, SESSION_SECRET: 'hunter2' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });
});
