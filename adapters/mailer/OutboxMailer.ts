import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailMessage, Mailer, OutboxEntry, OutboxReader } from '../../modules/mail/index.ts';
import { z } from 'zod';
import { defineProvider, type DemoStore } from '../../modules/shared/index.ts';

export type { OutboxEntry };

/** Where the outbox keeps what it wrote: a folder of .eml files, or the database every instance shares. */
interface OutboxShelf {
  put(entry: OutboxEntry, raw: string): Promise<void>;
  list(limit: number): Promise<OutboxEntry[]>;
  read(file: string): Promise<string | null>;
}

/** How many messages the listing shows, newest first. */
const LISTED = 200;
/** How long the database keeps an outbox message (the folder keeps them until it is emptied). */
const KEPT_DAYS = 14;
const FILE_NAME = /^[\w-]+\.eml$/;

/**
 * Writes each message, as the .eml text a mail server would receive, to the outbox instead of sending
 * it. The default with no SMTP_URL: every email of the product can be read on a laptop (/dev/outbox).
 * With the embedded database the messages are files under DATA_DIR/outbox (open them in any mail
 * client); with DATABASE_URL they are rows of `demo.objects`, so a message written by one instance is
 * listed by every other (issue 26).
 */
export class OutboxMailer implements Mailer, OutboxReader {
  readonly id = 'outbox' as const;
  /** Its listing is its own. */
  readonly outbox: OutboxReader = this;
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly shelf: OutboxShelf;
  private readonly from: string;
  readonly location: string;

  constructor(options: { from: string } & ({ dir: string } | { store: DemoStore })) {
    this.from = options.from;
    this.shelf = 'dir' in options ? folderShelf(options.dir) : databaseShelf(options.store);
    this.location = 'dir' in options ? options.dir : 'the database (listed at /dev/outbox)';
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    const sentAt = new Date();
    const file = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
    await this.shelf.put({ file, sentAt, to: message.to, subject: message.subject }, (info.message as Buffer).toString('utf8'));
  }

  /** Newest first. */
  list(): Promise<OutboxEntry[]> {
    return this.shelf.list(LISTED);
  }

  /** The raw message, or null for a name that is not an outbox message. */
  read(file: string): Promise<string | null> {
    return FILE_NAME.test(file) ? this.shelf.read(file) : Promise.resolve(null);
  }
}

function folderShelf(dir: string): OutboxShelf {
  return {
    async put(entry, raw) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, entry.file), raw);
    },
    async list(limit) {
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => FILE_NAME.test(n));
      // The names begin with the time they were written: newest first by name.
      const newest = names.sort((a, b) => b.localeCompare(a)).slice(0, limit);
      return Promise.all(
        newest.map(async (file) => {
          const raw = await readFile(path.join(dir, file), 'utf8');
          const end = raw.indexOf('\n\n');
          const header = raw.slice(0, end === -1 ? undefined : end);
          return {
            file,
            sentAt: (await stat(path.join(dir, file))).mtime,
            to: /^To: (.*)$/m.exec(header)?.[1] ?? '',
            subject: /^Subject: (.*)$/m.exec(header)?.[1] ?? '',
          };
        }),
      );
    },
    read: (file) => readFile(path.join(dir, file), 'utf8').catch(() => null),
  };
}

type StoredEntry = { file: string; sentAt: string; to: string; subject: string };

/** Two objects per message: the line the listing shows, and the raw text read when one is opened. */
function databaseShelf(store: DemoStore): OutboxShelf {
  return {
    async put(entry, raw) {
      const expiresAt = new Date(entry.sentAt.getTime() + KEPT_DAYS * 24 * 3600 * 1000);
      await store.insert<string>('mail-raw', entry.file, raw, { expiresAt });
      await store.insert<StoredEntry>('mail', entry.file, { ...entry, sentAt: entry.sentAt.toISOString() }, { expiresAt });
    },
    async list(limit) {
      const rows = await store.latest<StoredEntry>('mail', limit);
      return rows.map((r) => ({ ...r, sentAt: new Date(r.sentAt) }));
    },
    read: (file) => store.get<string>('mail-raw', file),
  };
}

/**
 * MAILER=outbox, chosen when SMTP_URL is not set (ADR 055): .eml files under DATA_DIR/outbox with the
 * embedded database, rows of `demo.objects` with DATABASE_URL (every instance lists every message).
 */
export const provider = defineProvider({
  id: 'outbox',
  demo: 'mail outbox (set SMTP_URL)',
  options: z
    .object({ DATA_DIR: z.string(), MAIL_FROM: z.string(), DATABASE_URL: z.string().optional() })
    .transform((c) => ({ dir: path.join(c.DATA_DIR, 'outbox'), from: c.MAIL_FROM, shared: Boolean(c.DATABASE_URL) })),
  create: (options, deps: { demoStore: DemoStore }) =>
    new OutboxMailer(options.shared ? { from: options.from, store: deps.demoStore } : { from: options.from, dir: options.dir }),
});
