import { describe, expect, it } from 'vitest';
import { errorText } from './issue.ts';
import { plainRewardError } from './plain-error.ts';
import { GiftCardError } from './port.ts';

/** The text the reward jobs store for a GiftCardError (errorText), as the adapters word it. */
const stored = (message: string) => errorText(new GiftCardError(message, { retryable: true, code: 'X' }));

describe('plainRewardError', () => {
  it('says what went wrong with Square in plain words', () => {
    const cases: Array<[string, string]> = [
      ['Square answered 503 SERVICE_UNAVAILABLE to create a gift card', 'Square had a problem on its side.'],
      ['Square answered 429 RATE_LIMITED to activate the gift card', 'Square was too busy and asked us to slow down.'],
      ['Square answered 401 UNAUTHORIZED to create a gift card', 'Square did not accept our connection. Connect Square again from the dashboard.'],
      ['Square answered 400 INVALID_VALUE to create a gift card: could not be reached', 'Square refused to create the gift card.'],
      ['Square did not answer in time to create a gift card.', 'Square did not answer in time.'],
      ['Square could not be reached to create a gift card (fetch failed).', 'Square could not be reached.'],
      ['This reward was started on Square, but the business is no longer connected to Square.', 'Square was disconnected before the card was created. Connect Square again, then try again.'],
      ['This reward was started on Square, but Square gift cards are switched off (GIFT_CARDS).', 'Square gift cards are switched off on this server. Contact support.'],
      ["Square's gift card G1 is DEACTIVATED and cannot be activated.", "Square's gift card did not match the one we saved. Contact support."],
    ];
    for (const [message, plain] of cases) expect(plainRewardError('issue', stored(message)), message).toBe(plain);
    expect(plainRewardError('issue', 'TypeError: something odd')).toBe('The gift card could not be created.');
    expect(plainRewardError('issue', null)).toBe('The gift card could not be created.');
  });

  it('says what went wrong with the mail server in plain words', () => {
    expect(plainRewardError('email', 'connect ECONNREFUSED 127.0.0.1:2525')).toBe('The mail server could not be reached.');
    expect(plainRewardError('email', 'Greeting never received')).toBe('The mail server could not be reached.');
    expect(plainRewardError('email', 'Message failed: 451 Mailbox busy, try later')).toBe('The mail server was busy and did not take the email.');
    expect(plainRewardError('email', "Can't send mail - all recipients were rejected: 550 5.1.1 <x@example.com>: Recipient address rejected")).toBe(
      "The mail server refused the email. Check the customer's email address.",
    );
    expect(plainRewardError('email', null)).toBe('The email could not be sent.');
  });
});
