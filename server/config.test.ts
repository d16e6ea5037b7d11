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

  it('share links follow PORT when APP_URL is not set; production needs APP_URL', () => {
    expect(loadConfig({ ...base, PORT: '4100' })).toMatchObject({ APP_URL: 'http://localhost:4100', APP_URL_FROM_PORT: true });
    expect(loadConfig({ ...base, PORT: '4100', APP_URL: 'https://rewards.example.com' })).toMatchObject({ APP_URL: 'https://rewards.example.com', APP_URL_FROM_PORT: false });
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', TOKEN_ENCRYPTION_KEY: key })).toThrow(/^\s+APP_URL: is required in production/m);
    expect(loadConfig({ ...base, NODE_ENV: 'production', TOKEN_ENCRYPTION_KEY: key, APP_URL: 'https://rewards.example.com' }).APP_URL).toBe('https://rewards.example.com');
  });

  it('chooses billing by its keys: fake without STRIPE_SECRET_KEY (demo is its old name), stripe with the keys and six prices', () => {
    expect(loadConfig(base)).toMatchObject({ BILLING: 'fake', SUPPORT_EMAIL: 'support@rewardloop.local' });
    expect(loadConfig({ ...base, BILLING: 'demo' }).BILLING).toBe('fake');
    const prices = Object.fromEntries(
      ['STARTER', 'GROWTH', 'PRO'].flatMap((p) => ['MONTHLY', 'YEARLY'].map((i) => [`STRIPE_PRICE_${p}_${i}`, `price_${p.toLowerCase()}_${i.toLowerCase()}`])),
    );
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', ...prices }).BILLING).toBe('stripe');
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
    [{ BILLING: 'paypal' }, 'BILLING'],
    [{ BILLING: 'stripe' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, 'STRIPE_PRICE_GROWTH_YEARLY'],
    [{ STRIPE_SECRET_KEY: 'pk_test_wrong' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_WEBHOOK_SECRET: 'secret' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ SUPPORT_EMAIL: 'nobody' }, 'SUPPORT_EMAIL'],
    [{ BLOB_STORE: 'nfs' }, 'BLOB_STORE'],
    [{ BLOB_STORE: 's3' }, 'S3_BUCKET'],
    [{ BLOB_STORE: 's3', S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ BLOB_STORE: 's3', S3_BUCKET: 'uploads', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ S3_FORCE_PATH_STYLE: 'sometimes' }, 'S3_FORCE_PATH_STYLE'],
  ])('rejects %o naming %s', (env, name) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`^\\s+${name}:`, 'm'));
  });

  it('chooses the upload store: postgres with DATABASE_URL, disk with the embedded database, or as BLOB_STORE says', () => {
    expect(loadConfig(base).BLOB_STORE).toBe('disk');
    const withDatabase = { ...base, DATABASE_URL: 'postgres://rl@localhost:5432/rl' };
    expect(loadConfig(withDatabase).BLOB_STORE).toBe('postgres');
    expect(loadConfig({ ...withDatabase, BLOB_STORE: 'disk' }).BLOB_STORE).toBe('disk');
    expect(loadConfig({ ...base, BLOB_STORE: 'postgres' }).BLOB_STORE).toBe('postgres');
    const s3 = loadConfig({ ...base, BLOB_STORE: 's3', S3_BUCKET: 'rewardloop-uploads', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' });
    expect(s3).toMatchObject({ BLOB_STORE: 's3', S3_BUCKET: 'rewardloop-uploads', S3_FORCE_PATH_STYLE: true });
    expect(() => loadConfig({ ...base, BLOB_STORE: 's3' })).toThrow(/S3_BUCKET: is required with BLOB_STORE=s3/);
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
