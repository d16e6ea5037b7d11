import { createHash } from 'node:crypto';
import { isDisposableEmail } from 'disposable-email-domains-js';
import type { HoldReason } from './entities.ts';
import type { Sql } from './sql.ts';

/**
 * When a reward is held for the owner's review (ADR 050). Ceilings are set so that honest traffic
 * never meets them: a household sharing a phone sends two surveys a day, not three; a 50-table cafe
 * on one Wi-Fi does not finish 30 surveys in ten minutes. A hold is never a refusal: the owner
 * releases it with one click.
 */
export const FRAUD_POLICY = {
  /** Submissions by other customers from the same device cookie to this business within the window. */
  device: { atLeast: 2, windowMinutes: 24 * 60 },
  /** Submissions by other customers from the same address to this business within the window. */
  ip: { atLeast: 30, windowMinutes: 10 },
  /** Free text (answers and the review read off a screenshot): the same text of 40+ letters and digits from another customer ("Everything was perfect" is common; a 40-letter copy is not). */
  text: { minCharacters: 40, windowDays: 365 },
  /**
   * Screenshots: a 64-bit DCT perceptual hash (sharp-phash) within this many bits of another
   * customer's screenshot for this business. Measured on tests/fixtures/screenshots: a re-saved,
   * re-encoded (WebP q60, half size) or brightened copy is 0-1 bits away; different screenshots of
   * one app's layout 3 or more (ADR 050).
   */
  image: { maxDistance: 2, windowDays: 365 },
} as const;

/** What a submission brings for the checks. */
export type SubmissionEvidence = {
  responseId: string;
  businessId: string;
  customerEmail: string | null;
  /** The first-party device cookie (`rl_client`), when the browser sent it. */
  deviceId: string | null;
  ip: string;
  /** Free texts: answers to text questions and review texts read off screenshots. */
  texts: readonly string[];
  /** 16-hex-digit perceptual hashes of the screenshots used. */
  imageHashes: readonly string[];
  now: Date;
};

/** Letters and digits only, case and accents folded: "Great coffee!!" and "great  coffee" are one text. */
export function textKey(text: string): string | null {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  return folded.length >= FRAUD_POLICY.text.minCharacters ? createHash('sha256').update(folded).digest('hex') : null;
}

const PHASH = /^[0-9a-f]{16}$/;

/** The domain of an email address on a disposable-email service's list (disposable-email-domains-js, pinned), or null. */
export function disposableDomain(email: string | null): string | null {
  if (!email) return null;
  const domain = email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();
  return domain && isDisposableEmail(email.trim().toLowerCase()) ? domain : null;
}

const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Compares a submission with earlier ones by other customers, then records its own fingerprints for
 * later submissions. Runs inside the submission's transaction. Returns the reasons to hold its reward
 * (empty: nothing suspicious). The owner-facing wording names what was seen, never another business.
 */
export async function assessSubmission(sql: Sql, ev: SubmissionEvidence): Promise<HoldReason[]> {
  const reasons: HoldReason[] = [];
  const count = async (query: string, params: unknown[]) => Number((await sql<{ n: string | number }>(query, params))[0]?.n ?? 0);
  const texts = [...new Set(ev.texts.map(textKey).filter((k): k is string => k !== null))];
  const images = [...new Set(ev.imageHashes.filter((h) => PHASH.test(h)))];

  if (images.length > 0) {
    const n = await count(
      `select count(distinct survey_response_id) as n from response_fingerprints
        where kind = 'image' and business_id = ? and created_at > ? and customer_email is distinct from ?
          and exists (select 1 from json_array_elements_text(?::json) as h(hash) where bit_count(('x' || response_fingerprints.value)::bit(64) # ('x' || h.hash)::bit(64)) <= ?)`,
      [ev.businessId, minutesBefore(ev.now, FRAUD_POLICY.image.windowDays * 1440), ev.customerEmail, JSON.stringify(images), FRAUD_POLICY.image.maxDistance],
    );
    if (n > 0) reasons.push({ code: 'similar_screenshot', detail: `A screenshot looks the same as one sent by another customer (${plural(n, 'earlier response', 'earlier responses')}).` });
  }
  if (texts.length > 0) {
    const n = await count(
      `select count(distinct survey_response_id) as n from response_fingerprints
        where kind = 'text' and value in (select t.key from json_array_elements_text(?::json) as t(key)) and created_at > ? and customer_email is distinct from ?`,
      [JSON.stringify(texts), minutesBefore(ev.now, FRAUD_POLICY.text.windowDays * 1440), ev.customerEmail],
    );
    if (n > 0) reasons.push({ code: 'same_text', detail: `The same text appears in ${plural(n, 'earlier response', 'earlier responses')} by other customers.` });
  }
  if (ev.deviceId) {
    const n = await count(
      `select count(distinct survey_response_id) as n from response_fingerprints
        where kind = 'device' and value = ? and business_id = ? and created_at > ? and customer_email is distinct from ?`,
      [ev.deviceId, ev.businessId, minutesBefore(ev.now, FRAUD_POLICY.device.windowMinutes), ev.customerEmail],
    );
    if (n >= FRAUD_POLICY.device.atLeast) {
      reasons.push({ code: 'device_burst', detail: `${plural(n, 'other submission', 'other submissions')} came from the same device in the last ${FRAUD_POLICY.device.windowMinutes / 60} hours.` });
    }
  }
  {
    const n = await count(
      `select count(distinct survey_response_id) as n from response_fingerprints
        where kind = 'ip' and value = ? and business_id = ? and created_at > ? and customer_email is distinct from ?`,
      [ev.ip, ev.businessId, minutesBefore(ev.now, FRAUD_POLICY.ip.windowMinutes), ev.customerEmail],
    );
    if (n >= FRAUD_POLICY.ip.atLeast) {
      reasons.push({ code: 'ip_burst', detail: `${plural(n, 'other submission', 'other submissions')} came from the same internet address in the last ${FRAUD_POLICY.ip.windowMinutes} minutes.` });
    }
  }
  const domain = disposableDomain(ev.customerEmail);
  if (domain) reasons.push({ code: 'disposable_email', detail: `The email address is at ${domain}, a disposable email service.` });

  const rows: Array<[string, string]> = [
    ...texts.map((v) => ['text', v] as [string, string]),
    ...images.map((v) => ['image', v] as [string, string]),
    ...(ev.deviceId ? [['device', ev.deviceId.slice(0, 128)] as [string, string]] : []),
    ['ip', ev.ip.slice(0, 128)],
  ];
  for (const [kind, value] of rows) {
    await sql(`insert into response_fingerprints (survey_response_id, business_id, customer_email, kind, value, created_at) values (?, ?, ?, ?, ?, ?)`, [
      ev.responseId,
      ev.businessId,
      ev.customerEmail,
      kind,
      value,
      ev.now,
    ]);
  }
  return reasons;
}
