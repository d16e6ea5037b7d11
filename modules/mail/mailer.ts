/** The Mailer port: how every module sends email. Adapters: SmtpMailer, OutboxMailer. */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A stable Message-ID (`<local@domain>`) for a message that may be sent again after a crash (the
   * reward email): mail clients and some servers then show the repeat as the same message.
   */
  messageId?: string;
};

export interface Mailer {
  readonly id: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
