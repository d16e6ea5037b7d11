import { provider as diskBlobStore } from '../adapters/blobstore/DiskBlobStore.ts';
import { provider as postgresBlobStore } from '../adapters/blobstore/PostgresBlobStore.ts';
import { provider as s3BlobStore } from '../adapters/blobstore/S3BlobStore.ts';
import { provider as fakeBilling } from '../adapters/billing/FakeBilling.ts';
import { provider as stripeBilling } from '../adapters/billing/StripeBilling.ts';
import { provider as squareGiftCards } from '../adapters/giftcards/SquareGiftCards.ts';
import { provider as testGiftCards } from '../adapters/giftcards/TestGiftCards.ts';
import { provider as outboxMailer } from '../adapters/mailer/OutboxMailer.ts';
import { provider as smtpMailer } from '../adapters/mailer/SmtpMailer.ts';
import { provider as demoPos } from '../adapters/pos/DemoPos.ts';
import { provider as squarePos } from '../adapters/pos/SquarePos.ts';
import { provider as fakeVerifier } from '../adapters/verification/FakeScreenshotVerifier.ts';
import { provider as ocrVerifier } from '../adapters/verification/OcrScreenshotVerifier.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Billing } from '../modules/billing/index.ts';
import type { Mailer } from '../modules/mail/index.ts';
import type { PosConnector } from '../modules/pos/index.ts';
import type { GiftCards } from '../modules/rewards/index.ts';
import type { AdapterProvider, DemoStore } from '../modules/shared/index.ts';
import type { BlobStore } from '../modules/uploads/index.ts';
import type { ScreenshotVerifier, VerificationHistory } from '../modules/verification/index.ts';

type Port<T, Deps = never> = { variable: string; providers: ReadonlyArray<AdapterProvider<T, unknown, Deps>> };

/**
 * The provider registry (ADR 055): per port, the configuration variable that picks the adapter and
 * the adapters it may pick, each with its id, its own options check and whether it is a demo.
 * A new adapter is one `provider` export in its file and one entry here.
 */
export const PROVIDERS: {
  mailer: Port<Mailer, { demoStore: DemoStore }>;
  pos: Port<PosConnector, { logger: Logger; demoStore: DemoStore }>;
  billing: Port<Billing, { demoStore: DemoStore }>;
  screenshotVerifier: Port<ScreenshotVerifier, { history: VerificationHistory }>;
  giftCards: Port<GiftCards>;
  blobStore: Port<BlobStore, { em: EntityManager }>;
} = {
  /** MAILER is derived: `smtp` when SMTP_URL is set, else `outbox` (in the database with DATABASE_URL). */
  mailer: { variable: 'MAILER', providers: [smtpMailer, outboxMailer] },
  pos: { variable: 'POS', providers: [squarePos, demoPos] },
  billing: { variable: 'BILLING', providers: [stripeBilling, fakeBilling] },
  screenshotVerifier: { variable: 'SCREENSHOT_VERIFIER', providers: [ocrVerifier, fakeVerifier] },
  /** `square` adds Square cards for connected businesses; Test cards are always there for the others. */
  giftCards: { variable: 'GIFT_CARDS', providers: [squareGiftCards, testGiftCards] },
  /** BLOB_STORE is derived when unset: `postgres` with DATABASE_URL, else `disk` (ADR 075). */
  blobStore: { variable: 'BLOB_STORE', providers: [postgresBlobStore, s3BlobStore, diskBlobStore] },
};

export type PortName = keyof typeof PROVIDERS;
type Settings = Record<string, unknown>;
// Method parameters are checked bivariantly: any provider of the port fits this shape.
type AnyProvider = AdapterProvider<unknown, unknown, never>;

/** The provider `settings[variable]` names for the port; a config schema enum makes an unknown id impossible. */
export function chosenProvider(port: PortName, settings: Settings): AnyProvider {
  const { variable, providers } = PROVIDERS[port];
  const id = settings[variable];
  const found = (providers as readonly AnyProvider[]).find((p) => p.id === id);
  if (!found) throw new Error(`${variable}: no adapter '${String(id)}' (known: ${providers.map((p) => p.id).join(', ')})`);
  return found;
}

/** Every chosen adapter checks its own options: the problems, each naming its variable. */
export function providerIssues(settings: Settings): Array<{ variable: string; message: string }> {
  const issues: Array<{ variable: string; message: string }> = [];
  for (const port of Object.keys(PROVIDERS) as PortName[]) {
    const result = chosenProvider(port, settings).options.safeParse(settings);
    if (!result.success) {
      for (const issue of result.error.issues) issues.push({ variable: String(issue.path[0] ?? PROVIDERS[port].variable), message: issue.message });
    }
  }
  return issues;
}

/** The chosen demo and fake adapters, as the production refusal names them. */
export function demoAdapters(settings: Settings): string[] {
  return (Object.keys(PROVIDERS) as PortName[]).map((port) => chosenProvider(port, settings).demo).filter((d): d is string => Boolean(d));
}

/** Builds an adapter from its provider: options read and checked from the settings, then `create`. */
export function build<Port, Options, Deps>(provider: AdapterProvider<Port, Options, Deps>, settings: Settings, ...deps: [Deps] extends [never] ? [] : [Deps]): Port {
  return provider.create(provider.options.parse(settings), deps[0] as Deps);
}

/** The chosen provider of one port, typed by the port (its id comes from the validated config). */
export function providerFor<T, Deps>(port: Port<T, Deps>, id: string): AdapterProvider<T, unknown, Deps> {
  const found = port.providers.find((p) => p.id === id);
  if (!found) throw new Error(`${port.variable}: no adapter '${id}'`);
  return found;
}
