import { describe, expect, it } from 'vitest';
import { groupedCardNumber, redemptionLink, rewardEmail } from './reward-email.ts';

const base = {
  issuanceId: '11111111-2222-4333-8444-555555555555',
  to: 'ana@example.com',
  customerName: 'Ana',
  businessName: 'Crumb & Co',
  rewardTier: 'Gold',
  amountCents: 1500,
  giftCardNumber: '7783320001001635',
  isSquareGiftCard: true,
  redemptionWebsite: 'crumbandco.com',
  appUrl: 'https://app.rewardloop.example',
};

describe('rewardEmail', () => {
  it('says what was rewarded and that any honest opinion counts, per review policy (issue 14)', () => {
    const every = rewardEmail({ ...base, reviewPolicy: 'ask_every' });
    for (const body of [every.text, every.html]) {
      expect(body).toContain('Any honest opinion counts: a review earns the same points whatever its stars or words.');
      expect(body).toContain('Every customer is offered the same steps, whatever their rating.');
    }
    const routed = rewardEmail({ ...base, reviewPolicy: 'rating_routed' });
    expect(routed.text).toContain('Which sharing steps you are offered depends on your overall rating.');
    expect(routed.text).not.toContain('Every customer is offered the same steps');
  });

  it('carries the number, the amount in dollars, the tier, the business and where to redeem, in text and HTML', () => {
    const mail = rewardEmail(base);
    expect(mail.subject).toBe('Your $15.00 gift card from Crumb & Co');
    expect(mail.text).toContain('Gift card number: 7783320001001635');
    expect(mail.text).toContain('Amount: $15.00');
    expect(mail.text).toContain('Tier: Gold');
    expect(mail.text).toContain('Redeem it at Crumb & Co: https://crumbandco.com/');
    expect(mail.text).not.toContain('TEST');
    expect(mail.html.replace(/<\/?span[^>]*>/g, '')).toContain('7783 3200 0100 1635');
    expect(mail.html).toContain('Crumb &amp; Co');
    expect(mail.html).toContain('href="https://crumbandco.com/"');
    expect(mail.html).toContain('max-width:480px');
    expect(mail.messageId).toBe('<reward-11111111-2222-4333-8444-555555555555@app.rewardloop.example>');
  });

  it('labels a Test card as a test in the subject, the text and a banner', () => {
    const mail = rewardEmail({ ...base, isSquareGiftCard: false, giftCardNumber: 'TEST123456789012' });
    expect(mail.subject).toBe('[TEST] Your $15.00 test gift card from Crumb & Co');
    expect(mail.text).toContain('This is a TEST gift card');
    expect(mail.text).toContain('Card: Test card');
    expect(mail.html).toContain('This is a TEST gift card');
    expect(mail.html.replace(/<\/?span[^>]*>/g, '')).toContain('TEST 1234 5678 9012');
  });

  it('escapes what owners and customers typed, and links only http(s) websites', () => {
    const mail = rewardEmail({ ...base, customerName: '<img src=x onerror=alert(1)>', businessName: '"Bad" <b>', redemptionWebsite: 'javascript:alert(1)' });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).toContain('Show this number at "Bad" <b> to redeem it.');
  });

  it('greets without a name when there is none', () => {
    expect(rewardEmail({ ...base, customerName: '  ' }).text.startsWith('Hi,\n')).toBe(true);
  });
});

describe('redemptionLink and groupedCardNumber', () => {
  it.each([
    ['crumbandco.com', 'https://crumbandco.com/'],
    ['https://crumbandco.com/gift', 'https://crumbandco.com/gift'],
    ['http://crumb.example', 'http://crumb.example/'],
    ['  ', null],
    [null, null],
    ['mailto:x@y.z', null],
    ['not a website', null],
  ])('%j -> %j', (value, expected) => {
    expect(redemptionLink(value)).toBe(expected);
  });

  it('groups by four', () => {
    expect(groupedCardNumber('7783320001001635')).toBe('7783 3200 0100 1635');
    expect(groupedCardNumber('123456')).toBe('1234 56');
  });

  it('carries the owner brand: the logo at the top and the button in the brand colour', () => {
    const mail = rewardEmail({ ...base, brandColor: '#1f7a4d', logoUrl: 'https://app.rewardloop.example/brand/logo/b1?v=abc' });
    expect(mail.html).toContain('<img src="https://app.rewardloop.example/brand/logo/b1?v=abc" alt="Crumb &amp; Co"');
    expect(mail.html).toContain('background:#1f7a4d');
    expect(mail.html).not.toContain('background:#4f46e5');
    const plain = rewardEmail({ ...base, brandColor: 'red;position:fixed' });
    expect(plain.html).toContain('background:#4f46e5');
    expect(plain.html).not.toContain('<img');
  });

  describe("in the customer's language (issue 30, ADR 084)", () => {
    it.each([
      ['es', 'Tu tarjeta regalo de 15,00 $ de Crumb & Co', '¡Gracias por tu opinión!', 'Número de la tarjeta regalo: 7783320001001635', 'Recompensa Oro'],
      ['fr', 'Votre carte cadeau de 15,00 $ de la part de Crumb & Co', 'Merci pour votre avis !', 'Numéro de la carte cadeau : 7783320001001635', 'Récompense Or'],
      ['de', 'Ihr Gutschein über 15,00 $ von Crumb & Co', 'Danke für Ihre Meinung!', 'Gutscheinnummer: 7783320001001635', 'Gold-Belohnung'],
      ['pt', 'Seu vale-presente de $ 15,00 de Crumb & Co', 'Obrigado pela sua opinião!', 'Número do vale-presente: 7783320001001635', 'Recompensa Ouro'],
    ])('%s: subject, text and HTML', (locale, subject, thanks, number, tierLine) => {
      const mail = rewardEmail({ ...base, locale, reviewPolicy: 'ask_every' });
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(thanks);
      expect(mail.text).toContain(number);
      expect(mail.html).toContain(`<html lang="${locale}">`);
      expect(mail.html).toContain(tierLine);
      for (const english of ['Thank you for your feedback', 'Gift card number', 'Keep this email', 'Any honest opinion counts', 'Redeem it at']) {
        expect(mail.text).not.toContain(english);
        expect(mail.html).not.toContain(english);
      }
    });

    it('keeps what the owner and the customer typed escaped, in bold where English has it', () => {
      const mail = rewardEmail({ ...base, businessName: 'Crumb & <Co>', locale: 'es' });
      expect(mail.html).toContain('¡Gracias por tu opinión! <strong>Crumb &amp; &lt;Co&gt;</strong> te envía una recompensa <strong>Oro</strong>.');
    });

    it('an unknown or missing language is English', () => {
      expect(rewardEmail({ ...base, locale: 'xx' }).subject).toBe(rewardEmail(base).subject);
      expect(rewardEmail({ ...base, locale: null }).html).toContain('<html lang="en">');
    });
  });
});
