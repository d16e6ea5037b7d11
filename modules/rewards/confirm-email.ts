import type { EntityManager } from '@mikro-orm/core';
import { escapeHtml, type Mailer, type MailMessage } from '../mail/index.ts';
import { Business } from '../accounts/server.ts';
import { SurveyResponse } from '../responses/server.ts';
import { ownerTierName } from '../surveys/index.ts';
import { SurveyConfig } from '../surveys/server.ts';
import { formatCents } from '../scoring/index.ts';
import { mintEmailToken, RewardHold } from '../trust/server.ts';
import { localeOf } from '../i18n/index.ts';
import { translatorFor } from '../i18n/server.ts';

/** The link a customer clicks to confirm their email before their gift card is sent (ADR 050). */
export function confirmLink(appUrl: string, token: string, locale?: string | null): string {
  const url = new URL(`/reward-confirm/${token}`, appUrl);
  // The page opens in the customer's language (ADR 090); an English link stays as it was.
  const lang = localeOf(locale);
  if (lang && lang !== 'en') url.searchParams.set('lang', lang);
  return url.toString();
}

/**
 * "Confirm your email to get your gift card": plain words, no accusation, one button. In the
 * customer's language, the one stored with the response (ADR 084, 086), as the reward email is:
 * English is the catalog's key, so it reads word for word as before; the amount by Intl for another
 * language ('5,00 $'), the tier translated.
 */
export function confirmEmailMessage(input: { to: string; customerName: string | null; businessName: string; amountCents: number; rewardTier: string; link: string; locale?: string | null; tierName?: string | null }): MailMessage {
  const locale = localeOf(input.locale) ?? 'en';
  const tr = translatorFor(locale);
  const { t } = tr;
  const hello = input.customerName ? t('Hi {{name}},', { name: input.customerName }) : t('Hi,');
  const values = { business: input.businessName, amount: locale === 'en' ? formatCents(input.amountCents) : tr.money(input.amountCents, false), tier: input.tierName?.trim() || t(input.rewardTier) };
  const after = t('Your gift card is sent by email as soon as you confirm. If you did not answer a survey, ignore this email.');
  const text = [
    hello,
    '',
    t('Thank you for your feedback to {{business}}. To receive your {{amount}} {{tier}} gift card, please confirm this is your email address:', values),
    '',
    input.link,
    '',
    after,
  ].join('\n');
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a;max-width:32rem;margin:0 auto;padding:1rem">
<p>${escapeHtml(hello)}</p>
<p>${escapeHtml(t('Thank you for your feedback to {{business}}. To receive your {{amount}} {{tier}} gift card, please confirm this is your email address.', values))}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#4338ca;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t('Confirm my email'))}</a></p>
<p style="font-size:14px;color:#475569">${escapeHtml(after)}</p>
</body></html>`;
  return { to: input.to, subject: t('Confirm your email for your {{business}} gift card', { business: input.businessName }), text, html };
}

/**
 * The reward-confirm-email job: sends the confirmation link while the hold still waits for it. The
 * link's token is minted here, just before the send (its hash on the hold), so the job's payload
 * names the response only and no secret outlives the email.
 */
export async function sendConfirmEmail(deps: { em: EntityManager; mailer: Mailer; appUrl: string }, input: { responseId: string }): Promise<'sent' | 'not-needed'> {
  const em = deps.em.fork();
  const hold = await em.findOne(RewardHold, { surveyResponseId: input.responseId }, { fields: ['status', 'businessId'], disableIdentityMap: true });
  if (hold?.status !== 'awaiting_email') return 'not-needed';
  const [response, business] = await Promise.all([
    em.findOne(SurveyResponse, { id: input.responseId }, { fields: ['customerEmail', 'customerName', 'rewardValue', 'rewardTier', 'locale', 'surveyConfigId'], disableIdentityMap: true }),
    em.findOne(Business, { id: hold.businessId }, { fields: ['displayName'], disableIdentityMap: true }),
  ]);
  if (!response || !business || !response.customerEmail || !response.rewardTier || !response.rewardValue) return 'not-needed';
  // The owner's own name for the tier in the customer's language, when they gave one (ADR 090).
  const survey = response.locale && response.surveyConfigId
    ? await em.findOne(SurveyConfig, { id: response.surveyConfigId }, { fields: ['languages', 'translations'], disableIdentityMap: true })
    : null;
  const token = await mintEmailToken(em, input.responseId);
  if (!token) return 'not-needed';
  await deps.mailer.send(
    confirmEmailMessage({
      to: response.customerEmail,
      customerName: response.customerName ?? null,
      businessName: business.displayName,
      amountCents: response.rewardValue,
      rewardTier: response.rewardTier,
      link: confirmLink(deps.appUrl, token, response.locale),
      locale: response.locale ?? null,
      tierName: ownerTierName(survey, response.locale, response.rewardTier),
    }),
  );
  return 'sent';
}
