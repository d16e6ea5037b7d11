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
  /** The outbox's own listing (MAILER=outbox only): what /dev/outbox shows outside production. */
  readonly outbox?: OutboxReader;
}

export type OutboxEntry = { file: string; sentAt: Date; to: string; subject: string };

/** The messages an outbox kept, newest first, and one message's raw text (null for a name that is not one). */
export interface OutboxReader {
  /** Where the messages are, in words: a folder, or the database (what the CLI tells its user). */
  readonly location: string;
  list(): Promise<OutboxEntry[]>;
  read(file: string): Promise<string | null>;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
