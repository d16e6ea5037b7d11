import { raw, type EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { logoPath } from '../branding/index.ts';
import type { Mailer } from '../mail/index.ts';
import { SurveyResponse } from '../responses/server.ts';
import { SurveyConfig } from '../surveys/server.ts';
import { ownerTierName } from '../surveys/index.ts';
import { GiftCardIssuance } from './entities.ts';
import { errorText } from './issue.ts';
import { rewardEmail } from './reward-email.ts';
import { DomainError } from '../shared/errors.ts';

export type RewardEmailDeps = {
  em: EntityManager;
  mailer: Mailer;
  appUrl: string;
  logger: Logger;
  /**
   * How long a sender holds an issuance's email (a lease), renewed every third of it while the send
   * runs, so a slow mail server keeps it and a killed sender's email can be retried soon after.
   * Default EMAIL_LEASE_SECONDS.
   */
  leaseSeconds?: number;
};

export type EmailOutcome =
  | { status: 'not-found' }
  | { status: 'already-sent'; emailedAt: Date }
  | { status: 'sent'; to: string };

/**
 * How long a sender holds a reward email (renewed while the send runs): after a crash the retry can
 * send after at most this long, so delivery resumes within about 30 s of a killed instance (pg-boss
 * notices the dead worker's job by its missing heartbeat, 10 s, and retries it 5 s later).
 */
export const EMAIL_LEASE_SECONDS = 15;

/** Another sender holds the email right now; the job retries later. */
export class RewardEmailBusyError extends DomainError {
  static override readonly kind = 'RewardEmailBusyError';
}

/**
 * The reward-email job (ADR 018): sends the issuance's email at most once per success.
 *
 * 1. Claim: one UPDATE takes a lease on the row if it is not sent and no lease is live; a second
 *    sender (a duplicate job, the CLI) finds it claimed and backs off.
 * 2. Send through the Mailer port with a Message-ID derived from the issuance id.
 * 3. Mark: `emailed_at` set and the lease released. A failed send releases the lease and rethrows.
 *
 * The one window left: a crash after the mail server accepted the message and before step 3
 * commits. The lease then expires and a retry sends again, with the same Message-ID. Email offers
 * no transaction with our database, so the choice is at-least-once (this) or at-most-once (mark
 * first, lose the email on a crash); a customer must never lose a reward, so a rare duplicate wins.
 */
export async function sendRewardEmail(deps: RewardEmailDeps, issuanceId: string): Promise<EmailOutcome> {
  const em = deps.em.fork();
  const lease = deps.leaseSeconds ?? EMAIL_LEASE_SECONDS;
  // The lease is taken in one UPDATE, on the database's clock (every sender compares with it).
  const claimed = await em.nativeUpdate(
    GiftCardIssuance,
    { id: issuanceId, emailedAt: null, $or: [{ emailClaimedUntil: null }, { emailClaimedUntil: { $lt: raw('now()') } }] },
    { emailClaimedUntil: raw('now() + make_interval(secs => ?)', [lease]), emailAttempts: raw('email_attempts + 1') },
  );
  if (claimed === 0) {
    const found = await em.findOne(GiftCardIssuance, { id: issuanceId }, { fields: ['emailedAt'], disableIdentityMap: true });
    if (!found) return { status: 'not-found' };
    if (found.emailedAt) return { status: 'already-sent', emailedAt: found.emailedAt };
    throw new RewardEmailBusyError(`The reward email of issuance ${issuanceId} is being sent by another worker.`);
  }

  const issuance = (await em.findOne(GiftCardIssuance, { id: issuanceId }, { disableIdentityMap: true }))!;
  const [business, response] = await Promise.all([
    em.findOne(Business, { id: issuance.businessId }, { fields: ['displayName', 'brandColor', 'brandLogoKey'], disableIdentityMap: true }),
    em.findOne(SurveyResponse, { id: issuance.surveyResponseId }, { fields: ['surveyConfigId', 'locale'], disableIdentityMap: true }),
  ]);
  const survey = response?.surveyConfigId
    ? await em.findOne(SurveyConfig, { id: response.surveyConfigId }, { fields: ['redemptionWebsite', 'reviewPolicy', 'languages', 'translations'], disableIdentityMap: true })
    : null;
  const message = rewardEmail({
    issuanceId,
    to: issuance.customerEmail,
    customerName: issuance.customerName ?? null,
    businessName: business!.displayName,
    rewardTier: issuance.rewardTier,
    amountCents: issuance.rewardValue,
    giftCardNumber: issuance.giftCardNumber,
    isSquareGiftCard: issuance.isSquareGiftCard,
    redemptionWebsite: survey?.redemptionWebsite ?? null,
    reviewPolicy: survey?.reviewPolicy ?? null,
    appUrl: deps.appUrl,
    brandColor: business!.brandColor ?? null,
    logoUrl: absoluteLogoUrl(deps.appUrl, issuance.businessId, business!.brandLogoKey ?? null),
    // The language the customer answered in (ADR 084).
    locale: response?.locale ?? null,
    tierName: ownerTierName(survey, response?.locale, issuance.rewardTier),
  });
  // A slow mail server keeps the lease alive; a sender that dies leaves at most one lease behind.
  const renew = setInterval(() => {
    void em
      .nativeUpdate(GiftCardIssuance, { id: issuanceId, emailedAt: null }, { emailClaimedUntil: raw('now() + make_interval(secs => ?)', [lease]) })
      .catch((error: unknown) => deps.logger.warn({ err: error, issuanceId }, 'could not renew the reward email lease'));
  }, (lease * 1000) / 3);
  try {
    await deps.mailer.send(message);
  } catch (error) {
    await em.nativeUpdate(GiftCardIssuance, { id: issuanceId }, { emailClaimedUntil: null, emailLastError: errorText(error) }).catch(
      (release: unknown) => deps.logger.warn({ err: release, issuanceId }, 'could not release the reward email lease'),
    );
    throw error;
  } finally {
    clearInterval(renew);
  }
  // The message is out: mark it, trying a little harder than once (the duplicate window above).
  for (let attempt = 1; ; attempt += 1) {
    try {
      await em.nativeUpdate(GiftCardIssuance, { id: issuanceId }, { emailedAt: raw('now()'), emailClaimedUntil: null, emailLastError: null, emailFailedAt: null });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
  deps.logger.info({ issuanceId, mailer: deps.mailer.id }, 'reward email sent');
  return { status: 'sent', to: issuance.customerEmail };
}

/** Records a failed attempt of reward-email; `final` (no retry follows) marks the email failed. */
export async function recordEmailFailure(em: EntityManager, issuanceId: string, error: unknown, final: boolean): Promise<void> {
  await em.fork().nativeUpdate(GiftCardIssuance, { id: issuanceId }, { emailLastError: errorText(error), ...(final ? { emailFailedAt: raw('now()') } : {}) });
}

/** The owner's logo as an absolute address (email clients need one); null without a logo. */
function absoluteLogoUrl(appUrl: string, businessId: string, logoKey: string | null): string | null {
  const path = logoPath(businessId, logoKey);
  return path ? new URL(path, appUrl).toString() : null;
}
