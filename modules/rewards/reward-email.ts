import { escapeHtml, type MailMessage } from '../mail/index.ts';
import { formatCents } from '../scoring/index.ts';
import { INCENTIVE_DISCLOSURE, POLICY_DISCLOSURE, reviewPolicyOf } from '../surveys/index.ts';
import { localeOf } from '../i18n/index.ts';
import { translatorFor } from '../i18n/server.ts';

export type RewardEmailInput = {
  issuanceId: string;
  to: string;
  customerName: string | null;
  businessName: string;
  rewardTier: string;
  amountCents: number;
  giftCardNumber: string;
  isSquareGiftCard: boolean;
  /** The survey's redemption website as the owner typed it (`crumbandco.com` or a full URL), or null. */
  redemptionWebsite: string | null;
  /** The survey's review policy (ADR 040) for the disclosure; null or missing: the spec's rating-routed flow. */
  reviewPolicy?: string | null;
  /** APP_URL: its host names the Message-ID. */
  appUrl: string;
  /** The owner's brand colour (checked for white text at 4.5:1), for the button; null: RewardLoop's indigo. */
  brandColor?: string | null;
  /** The owner's logo, an absolute URL; null: none. */
  logoUrl?: string | null;
  /** The customer's language, stored with the response (ADR 084); null or unknown: English. */
  locale?: string | null;
  /** The owner's name for the tier in that language (`ownerTierName`, ADR 090); null: the catalog's. */
  tierName?: string | null;
};

/** The owner's redemption website as a link: a bare domain gets https://; anything but http(s) is dropped. */
export function redemptionLink(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** '7783320001001635' -> '7783 3200 0100 1635': easier to read out at a till. */
export function groupedCardNumber(gan: string): string {
  return gan.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The card number in groups of four that never break inside (a narrow phone wraps between groups at
 * most), with plain spaces between them so a copy gives the number as printed.
 */
function cardNumberHtml(gan: string): string {
  return groupedCardNumber(gan)
    .split(' ')
    .map((group) => `<span style="white-space:nowrap">${escapeHtml(group)}</span>`)
    .join(' ');
}

/**
 * The reward email: the gift card number, the amount in dollars, the tier, the business and where
 * to redeem. One column, large type and a 480 px maximum width, so it reads on a phone; plain text
 * for clients that show no HTML. A Test card says so in the subject and in a banner.
 */
export function rewardEmail(input: RewardEmailInput): MailMessage {
  // In the customer's language (ADR 084): English is the catalog's key, so it reads as it always did.
  const locale = localeOf(input.locale) ?? 'en';
  const tr = translatorFor(locale);
  const { t } = tr;
  const amount = locale === 'en' ? formatCents(input.amountCents) : tr.money(input.amountCents, false);
  const tier = input.tierName?.trim() || t(input.rewardTier);
  const business = input.businessName;
  const link = redemptionLink(input.redemptionWebsite);
  const greeting = input.customerName?.trim() ? t('Hi {{name}},', { name: input.customerName.trim() }) : t('Hi,');
  const test = !input.isSquareGiftCard;
  const subject = test
    ? t('[TEST] Your {{amount}} test gift card from {{business}}', { amount, business })
    : t('Your {{amount}} gift card from {{business}}', { amount, business });
  const testNote = t('This is a TEST gift card: it was issued without Square, so it has no value and cannot be redeemed.');
  // What was rewarded, and that any honest opinion counts (issue 14): the same words as the survey page.
  const policy = reviewPolicyOf({ reviewPolicy: input.reviewPolicy ?? null });
  const disclosure = `${t(INCENTIVE_DISCLOSURE)} ${t(POLICY_DISCLOSURE[policy])}`;
  const redeem = link ? t('Redeem it at {{business}}: {{link}}', { business, link }) : t('Show this number at {{business}} to redeem it.', { business });

  const text = [
    greeting,
    '',
    t('Thank you for your feedback! {{business}} sends you a {{tier}} reward.', { business, tier }),
    ...(test ? ['', testNote] : []),
    '',
    t('Gift card number: {{number}}', { number: input.giftCardNumber }),
    t('Amount: {{amount}}', { amount }),
    t('Tier: {{tier}}', { tier }),
    t('Card: {{card}}', { card: t(test ? 'Test card' : 'Square gift card') }),
    '',
    redeem,
    '',
    t('Keep this email: the number is your gift card.'),
    '',
    disclosure,
    '',
  ].join('\n');

  const e = escapeHtml;
  /** A translated sentence, escaped, with the named values in bold (markers survive the escaping). */
  const strong = (key: string, values: Record<string, string>) => {
    const marked = Object.fromEntries(Object.keys(values).map((k, i) => [k, `\uE000${i}\uE001`]));
    return e(t(key, marked)).replace(/\uE000(\d+)\uE001/g, (_, i: string) => `<strong>${e(Object.values(values)[Number(i)]!)}</strong>`);
  };
  // Only a colour checked on save reaches here; anything else falls back to RewardLoop's indigo.
  const buttonColor = input.brandColor && /^#[0-9a-f]{6}$/i.test(input.brandColor) ? input.brandColor : '#4f46e5';
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5">
<div style="max-width:480px;margin:0 auto;padding:24px 16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5;color:#111">
${input.logoUrl ? `<p style="margin:0 0 16px;text-align:center"><img src="${e(input.logoUrl)}" alt="${e(input.businessName)}" height="48" style="height:48px;width:auto;max-width:60%;border:0"></p>\n` : ''}${test ? `<p style="margin:0 0 16px;padding:12px;border-radius:8px;background:#fef3c7;color:#78350f;font-weight:600">${e(testNote)}</p>\n` : ''}<p style="margin:0 0 12px">${e(greeting)}</p>
<p style="margin:0 0 20px">${strong('Thank you for your feedback! {{business}} sends you a {{tier}} reward.', { business, tier })}</p>
<div style="padding:20px;border-radius:12px;background:#fff;border:1px solid #e4e4e7;text-align:center">
<p style="margin:0;font-size:14px;color:#52525b">${e(t(test ? 'Test card number' : 'Gift card number'))}</p>
<p data-card-number style="margin:4px 0 16px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:22px;font-weight:700;line-height:1.4">${cardNumberHtml(input.giftCardNumber)}</p>
<p style="margin:0;font-size:32px;font-weight:700">${e(amount)}</p>
<p style="margin:0;font-size:14px;color:#52525b">${e(t('{{tier}} reward', { tier }))}</p>
</div>
<p style="margin:20px 0 0">${
    link
      ? `${e(t('Redeem it at {{business}}:', { business }))}<br><a href="${e(link)}" style="display:inline-block;margin-top:8px;padding:12px 20px;border-radius:8px;background:${e(buttonColor)};color:#fff;text-decoration:none;font-weight:600;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere">${e(t('Redeem at {{site}}', { site: link.replace(/^https?:\/\//, '').replace(/\/$/, '') }))}</a>`
      : e(t('Show this number at {{business}} to redeem it.', { business }))
  }</p>
<p style="margin:20px 0 0;font-size:14px;color:#52525b">${e(t('Keep this email: the number is your gift card.'))}</p>
<p data-disclosure style="margin:16px 0 0;font-size:13px;color:#52525b">${e(disclosure)}</p>
</div>
</body></html>`;

  const host = safeHost(input.appUrl);
  return { to: input.to, subject, text, html, messageId: `<reward-${input.issuanceId}@${host}>` };
}

function safeHost(appUrl: string): string {
  try {
    return new URL(appUrl).hostname || 'rewardloop.local';
  } catch {
    return 'rewardloop.local';
  }
}
