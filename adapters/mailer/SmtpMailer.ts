import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../modules/mail/index.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

/** Sends through the SMTP server named by SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export class SmtpMailer implements Mailer {
  readonly id = 'smtp' as const;
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(options: { url: string; from: string; connectionTimeoutMs?: number }) {
    const url = new URL(options.url);
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // `?starttls=false` for servers (and test servers) that offer no usable TLS.
      ignoreTLS: url.searchParams.get('starttls') === 'false',
      connectionTimeout: options.connectionTimeoutMs ?? 10_000,
      greetingTimeout: options.connectionTimeoutMs ?? 10_000,
      socketTimeout: 30_000,
    });
    this.from = options.from;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** MAILER=smtp, chosen when SMTP_URL is set (ADR 055). */
export const provider = defineProvider({
  id: 'smtp',
  options: z.object({ SMTP_URL: z.string({ error: 'is required with MAILER=smtp' }), MAIL_FROM: z.string() }).transform((c) => ({ url: c.SMTP_URL, from: c.MAIL_FROM })),
  create: (options) => new SmtpMailer(options),
});
