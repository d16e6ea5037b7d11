import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { build, demoAdapters, PROVIDERS, providerFor, providerIssues } from './providers.ts';

const base = { DATA_DIR: '/tmp/rewardloop-providers-test', SESSION_SECRET: 'x'.repeat(32) };

describe('the provider registry', () => {
  it('names the chosen demo adapters, and none once the real ones are configured', () => {
    expect(demoAdapters(loadConfig({ ...base, SCREENSHOT_VERIFIER: 'fake' }))).toEqual([
      'mail outbox (set SMTP_URL)',
      'demo point of sale (POS=demo)',
      'fake billing (BILLING=fake; set the STRIPE_* variables)',
      'fake screenshot verifier (SCREENSHOT_VERIFIER=fake)',
      'test gift cards (GIFT_CARDS=test)',
    ]);
    const prices = Object.fromEntries(
      ['STARTER', 'GROWTH', 'PRO'].flatMap((p) => ['MONTHLY', 'YEARLY'].map((i) => [`STRIPE_PRICE_${p}_${i}`, `price_${p.toLowerCase()}_${i.toLowerCase()}`])),
    );
    const real = loadConfig({
      ...base,
      SMTP_URL: 'smtp://mail.example.com:587',
      POS: 'square',
      SQUARE_APPLICATION_ID: 'sq0idp-x',
      SQUARE_APPLICATION_SECRET: 'sq0csp-y',
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      ...prices,
    });
    expect(real).toMatchObject({ MAILER: 'smtp', POS: 'square', BILLING: 'stripe', SCREENSHOT_VERIFIER: 'ocr', GIFT_CARDS: 'square' });
    expect(demoAdapters(real)).toEqual([]);
  });

  it('lets each chosen adapter check its own options, naming the variable', () => {
    const config = loadConfig(base);
    expect(providerIssues({ ...config, POS: 'square' })).toEqual([
      { variable: 'SQUARE_APPLICATION_ID', message: 'is required with POS=square' },
      { variable: 'SQUARE_APPLICATION_SECRET', message: 'is required with POS=square' },
    ]);
    expect(providerIssues({ ...config, BILLING: 'stripe' }).map((i) => i.variable)).toContain('STRIPE_PRICE_PRO_YEARLY');
    expect(providerIssues(config)).toEqual([]);
  });

  it('builds the adapter whose id the variable names', () => {
    const config = loadConfig(base);
    expect(build(providerFor(PROVIDERS.mailer, 'outbox'), config, { demoStore: undefined as never }).id).toBe('outbox');
    expect(build(providerFor(PROVIDERS.billing, 'fake'), config, { demoStore: undefined as never }).id).toBe('fake');
    expect(build(providerFor(PROVIDERS.giftCards, 'test'), config).id).toBe('test');
    expect(build(providerFor(PROVIDERS.pos, 'demo'), config, { logger: undefined as never, demoStore: undefined as never }).id).toBe('demo');
    expect(() => providerFor(PROVIDERS.pos, 'clover')).toThrow(/POS: no adapter 'clover'/);
  });
});
