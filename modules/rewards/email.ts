import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { logoPath } from '../branding/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { errorText, sqlOn } from './issue.ts';
import { rewardEmail } from './reward-email.ts';

export type RewardEmailDeps = {
  em: EntityManager;
  mailer: Mailer;
  appUrl: string;
  logger: Logger;
  /**
   * How long a sender holds an issuance's email (a lease). Longer than the slowest send (SMTP: 10 s
   * to connect, 30 s per socket read), shorter than the job's expiry, so a killed sender's email
   * can be retried. Default 90 s.
   */
  leaseSeconds?: number;
};

export type EmailOutcome =
  | { status: 'not-found' }
  | { status: 'already-sent'; emailedAt: Date }
  | { status: 'sent'; to: string };

/** Another sender holds the email right now; the job retries later. */
export class RewardEmailBusyError extends Error {
  override name = 'RewardEmailBusyError';
}

type EmailRow = {
  id: string;
  customer_email: string;
  customer_name: string | null;
  gift_card_number: string;
  reward_value: number;
  reward_tier: string;
  is_square_gift_card: boolean;
  display_name: string;
  redemption_website: string | null;
  review_policy: string | null;
  business_id: string;
  brand_color: string | null;
  brand_logo_key: string | null;
};

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
  const sql = sqlOn(em);
  const lease = deps.leaseSeconds ?? 90;
  const claimed = await sql<{ id: string }>(
    `update gift_card_issuances set email_claimed_until = now() + make_interval(secs => ?), email_attempts = email_attempts + 1
      where id = ? and emailed_at is null and (email_claimed_until is null or email_claimed_until < now())
      returning id`,
    [lease, issuanceId],
  );
  if (claimed.length === 0) {
    const [row] = await sql<{ emailed_at: Date | string | null }>(`select emailed_at from gift_card_issuances where id = ?`, [issuanceId]);
    if (!row) return { status: 'not-found' };
    if (row.emailed_at) return { status: 'already-sent', emailedAt: new Date(row.emailed_at) };
    throw new RewardEmailBusyError(`The reward email of issuance ${issuanceId} is being sent by another worker.`);
  }

  const [row] = await sql<EmailRow>(
    `select i.id, i.customer_email, i.customer_name, i.gift_card_number, i.reward_value, i.reward_tier, i.is_square_gift_card,
            b.display_name, s.redemption_website, s.review_policy, b.id as business_id, b.brand_color, b.brand_logo_key
       from gift_card_issuances i
       join businesses b on b.id = i.business_id
       join survey_responses r on r.id = i.survey_response_id
       left join survey_configs s on s.id = r.survey_config_id
      where i.id = ?`,
    [issuanceId],
  );
  const message = rewardEmail({
    issuanceId,
    to: row!.customer_email,
    customerName: row!.customer_name,
    businessName: row!.display_name,
    rewardTier: row!.reward_tier,
    amountCents: row!.reward_value,
    giftCardNumber: row!.gift_card_number,
    isSquareGiftCard: row!.is_square_gift_card,
    redemptionWebsite: row!.redemption_website,
    reviewPolicy: row!.review_policy,
    appUrl: deps.appUrl,
    brandColor: row!.brand_color,
    logoUrl: absoluteLogoUrl(deps.appUrl, row!.business_id, row!.brand_logo_key),
  });
  try {
    await deps.mailer.send(message);
  } catch (error) {
    await sql(`update gift_card_issuances set email_claimed_until = null, email_last_error = ? where id = ?`, [errorText(error), issuanceId]).catch(
      (release: unknown) => deps.logger.warn({ err: release, issuanceId }, 'could not release the reward email lease'),
    );
    throw error;
  }
  // The message is out: mark it, trying a little harder than once (the duplicate window above).
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sql(
        `update gift_card_issuances set emailed_at = now(), email_claimed_until = null, email_last_error = null, email_failed_at = null where id = ?`,
        [issuanceId],
      );
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
  deps.logger.info({ issuanceId, mailer: deps.mailer.id }, 'reward email sent');
  return { status: 'sent', to: row!.customer_email };
}

/** Records a failed attempt of reward-email; `final` (no retry follows) marks the email failed. */
export async function recordEmailFailure(em: EntityManager, issuanceId: string, error: unknown, final: boolean): Promise<void> {
  await sqlOn(em.fork())(
    `update gift_card_issuances set email_last_error = ?, email_failed_at = case when ? then now() else email_failed_at end where id = ?`,
    [errorText(error), final, issuanceId],
  );
}

/** The owner's logo as an absolute address (email clients need one); null without a logo. */
function absoluteLogoUrl(appUrl: string, businessId: string, logoKey: string | null): string | null {
  const path = logoPath(businessId, logoKey);
  return path ? new URL(path, appUrl).toString() : null;
}
