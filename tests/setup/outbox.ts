import { simpleParser } from 'mailparser';
import type { Root } from '../../server/composition.ts';

export type ReadMail = { to: string; subject: string; text: string; html: string };

/** Every message in the outbox of a test root, parsed, newest first. */
export async function readOutbox(root: Root): Promise<ReadMail[]> {
  if (!root.outbox) throw new Error('this root sends by SMTP, not to the outbox');
  const out: ReadMail[] = [];
  for (const entry of await root.outbox.list()) {
    const parsed = await simpleParser((await root.outbox.read(entry.file))!);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    out.push({ to: to?.value[0]?.address ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', html: parsed.html || '' });
  }
  return out;
}
