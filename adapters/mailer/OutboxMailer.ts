import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailMessage, Mailer, OutboxEntry, OutboxReader } from '../../modules/mail/index.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

export type { OutboxEntry };

/**
 * Writes each message as an .eml file under the outbox folder instead of sending it.
 * The default with no SMTP_URL: every email of the product can be read on a laptop.
 */
export class OutboxMailer implements Mailer, OutboxReader {
  readonly id = 'outbox' as const;
  /** Its listing is its own. */
  readonly outbox: OutboxReader = this;
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  readonly dir: string;
  private readonly from: string;

  constructor(options: { dir: string; from: string }) {
    this.dir = options.dir;
    this.from = options.from;
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await writeFile(path.join(this.dir, `${stamp}-${randomUUID().slice(0, 8)}.eml`), info.message as Buffer);
  }

  /** Newest first. */
  async list(): Promise<OutboxEntry[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names
        .filter((n) => n.endsWith('.eml'))
        .map(async (file) => {
          const raw = await readFile(path.join(this.dir, file), 'utf8');
          const header = raw.slice(0, raw.indexOf('\n\n') === -1 ? undefined : raw.indexOf('\n\n'));
          return {
            file,
            sentAt: (await stat(path.join(this.dir, file))).mtime,
            to: /^To: (.*)$/m.exec(header)?.[1] ?? '',
            subject: /^Subject: (.*)$/m.exec(header)?.[1] ?? '',
          };
        }),
    );
    return entries.sort((a, b) => b.file.localeCompare(a.file));
  }

  /** The raw message, or null for a name that is not an outbox file. */
  async read(file: string): Promise<string | null> {
    if (!/^[\w-]+\.eml$/.test(file)) return null;
    return readFile(path.join(this.dir, file), 'utf8').catch(() => null);
  }
}

/** MAILER=outbox, chosen when SMTP_URL is not set (ADR 055): .eml files under DATA_DIR/outbox. */
export const provider = defineProvider({
  id: 'outbox',
  demo: 'mail outbox (set SMTP_URL)',
  options: z.object({ DATA_DIR: z.string(), MAIL_FROM: z.string() }).transform((c) => ({ dir: path.join(c.DATA_DIR, 'outbox'), from: c.MAIL_FROM })),
  create: (options) => new OutboxMailer(options),
});
