/**
 * A reward's stored last error (`gift_card_requests.last_error`, `gift_card_issuances.email_last_error`:
 * the failure's message, ADR 018) in words an owner can read between shifts. The stored text stays
 * for support (`reward-cli rewards failed`); the owner's page shows this and keeps the original
 * behind a "Technical detail" disclosure.
 */
export function plainRewardError(stage: 'issue' | 'email', lastError: string | null): string {
  const e = (lastError ?? '').replace(/^\w*Error: /, '');
  if (stage === 'issue') {
    const status = Number(/^Square answered (\d{3}) /.exec(e)?.[1] ?? 0);
    if (status === 429) return 'Square was too busy and asked us to slow down.';
    if (status >= 500) return 'Square had a problem on its side.';
    if (status === 401 || status === 403) return 'Square did not accept our connection. Connect Square again from the dashboard.';
    if (status >= 400) return 'Square refused to create the gift card.';
    if (/^Square did not answer in time/.test(e)) return 'Square did not answer in time.';
    if (/^Square could not be reached/.test(e)) return 'Square could not be reached.';
    if (/no longer connected to Square/.test(e)) return 'Square was disconnected before the card was created. Connect Square again, then try again.';
    if (/Square gift cards are switched off/.test(e)) return 'Square gift cards are switched off on this server. Contact support.';
    if (/^No Square account/.test(e)) return 'No Square account was connected to create the card with. Connect Square, then try again.';
    if (/cannot be activated|has another number|Another card/.test(e)) return "Square's gift card did not match the one we saved. Contact support.";
    return 'The gift card could not be created.';
  }
  // nodemailer: 'Message failed: 451 …', "Can't send mail - all recipients were rejected: 550 …".
  const smtp = /(failed|rejected)\b.*?\b([45])\d\d\b/.exec(e);
  if (smtp?.[2] === '5') return "The mail server refused the email. Check the customer's email address.";
  if (smtp?.[2] === '4') return 'The mail server was busy and did not take the email.';
  if (/ECONN|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timeout|Greeting never received|connect/i.test(e)) return 'The mail server could not be reached.';
  return 'The email could not be sent.';
}
