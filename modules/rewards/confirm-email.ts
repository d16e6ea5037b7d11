import type { EntityManager } from '@mikro-orm/core';
import { escapeHtml, type Mailer, type MailMessage } from '../mail/mailer.ts';
import { formatCents } from '../scoring/index.ts';
import { sqlOn } from './issue.ts';

/** The link a customer clicks to confirm their email before their gift card is sent (ADR 050). */
export const confirmLink = (appUrl: string, token: string) => new URL(`/reward-confirm/${token}`, appUrl).toString();

/** "Confirm your email to get your gift card": plain words, no accusation, one button. */
export function confirmEmailMessage(input: { to: string; customerName: string | null; businessName: string; amountCents: number; rewardTier: string; link: string }): MailMessage {
  const hello = input.customerName ? `Hi ${input.customerName},` : 'Hi,';
  const value = `${formatCents(input.amountCents)} ${input.rewardTier}`;
  const text = [
    hello,
    '',
    `Thank you for your feedback to ${input.businessName}. To receive your ${value} gift card, please confirm this is your email address:`,
    '',
    input.link,
    '',
    'Your gift card is sent by email as soon as you confirm. If you did not answer a survey, ignore this email.',
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a;max-width:32rem;margin:0 auto;padding:1rem">
<p>${escapeHtml(hello)}</p>
<p>Thank you for your feedback to ${escapeHtml(input.businessName)}. To receive your ${escapeHtml(value)} gift card, please confirm this is your email address.</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#4338ca;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Confirm my email</a></p>
<p style="font-size:14px;color:#475569">Your gift card is sent by email as soon as you confirm. If you did not answer a survey, ignore this email.</p>
</body></html>`;
  return { to: input.to, subject: `Confirm your email for your ${input.businessName} gift card`, text, html };
}

/** The reward-confirm-email job: sends the confirmation link while the hold still waits for it. */
export async function sendConfirmEmail(deps: { em: EntityManager; mailer: Mailer; appUrl: string }, input: { responseId: string; token: string }): Promise<'sent' | 'not-needed'> {
  const [row] = await sqlOn(deps.em.fork())<{ customer_email: string | null; customer_name: string | null; reward_value: number | null; reward_tier: string | null; display_name: string; status: string }>(
    `select r.customer_email, r.customer_name, r.reward_value, r.reward_tier, b.display_name, h.status
       from reward_holds h join survey_responses r on r.id = h.survey_response_id join businesses b on b.id = h.business_id
      where h.survey_response_id = ?`,
    [input.responseId],
  );
  if (!row || row.status !== 'awaiting_email' || !row.customer_email || !row.reward_tier || !row.reward_value) return 'not-needed';
  await deps.mailer.send(
    confirmEmailMessage({
      to: row.customer_email,
      customerName: row.customer_name,
      businessName: row.display_name,
      amountCents: row.reward_value,
      rewardTier: row.reward_tier,
      link: confirmLink(deps.appUrl, input.token),
    }),
  );
  return 'sent';
}
