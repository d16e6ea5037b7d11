import { createHash } from 'node:crypto';
import { isDisposableEmail } from 'disposable-email-domains-js';
import { raw, type EntityManager } from '@mikro-orm/core';
import type { QBFilterQuery } from '@mikro-orm/postgresql';
import { queryBuilder } from '../shared/orm.ts';
import { ResponseFingerprint, type FingerprintKind, type HoldReason } from './entities.ts';

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
export async function assessSubmission(em: EntityManager, ev: SubmissionEvidence): Promise<HoldReason[]> {
  const reasons: HoldReason[] = [];
  // `customer_email is distinct from ?`: other customers only (a null email is another customer's).
  const otherCustomer: QBFilterQuery<ResponseFingerprint> = ev.customerEmail === null ? { customerEmail: { $ne: null } } : { $or: [{ customerEmail: null }, { customerEmail: { $ne: ev.customerEmail } }] };
  /** Earlier responses (distinct) with a fingerprint matching `where`, by other customers. */
  const count = async (kind: FingerprintKind, since: Date, where: QBFilterQuery<ResponseFingerprint>) => {
    const filter: QBFilterQuery<ResponseFingerprint> = { $and: [{ kind, createdAt: { $gt: since } }, otherCustomer, where] };
    const row = await queryBuilder(em, ResponseFingerprint)
      .count('surveyResponseId', true)
      .where(filter)
      .execute<{ count: string | number }>('get');
    return Number(row?.count ?? 0); // count() is bigint: the driver hands it over as a string
  };
  const texts = [...new Set(ev.texts.map(textKey).filter((k): k is string => k !== null))];
  const images = [...new Set(ev.imageHashes.filter((h) => PHASH.test(h)))];

  if (images.length > 0) {
    // Hamming distance of two 64-bit hex hashes: PostgreSQL's bit_count over their XOR. No ORM
    // operator says this, so it is a raw fragment inside the ORM's query, one per hash.
    const n = await count('image', minutesBefore(ev.now, FRAUD_POLICY.image.windowDays * 1440), {
      businessId: ev.businessId,
      $or: images.map((hash) => ({ [raw(`bit_count(('x' || value)::bit(64) # ('x' || ?)::bit(64))`, [hash])]: { $lte: FRAUD_POLICY.image.maxDistance } })),
    });
    if (n > 0) reasons.push({ code: 'similar_screenshot', detail: `A screenshot looks the same as one sent by another customer (${plural(n, 'earlier response', 'earlier responses')}).` });
  }
  if (texts.length > 0) {
    const n = await count('text', minutesBefore(ev.now, FRAUD_POLICY.text.windowDays * 1440), { value: { $in: texts } });
    if (n > 0) reasons.push({ code: 'same_text', detail: `The same text appears in ${plural(n, 'earlier response', 'earlier responses')} by other customers.` });
  }
  if (ev.deviceId) {
    const n = await count('device', minutesBefore(ev.now, FRAUD_POLICY.device.windowMinutes), { value: ev.deviceId, businessId: ev.businessId });
    if (n >= FRAUD_POLICY.device.atLeast) {
      reasons.push({ code: 'device_burst', detail: `${plural(n, 'other submission', 'other submissions')} came from the same device in the last ${FRAUD_POLICY.device.windowMinutes / 60} hours.` });
    }
  }
  {
    const n = await count('ip', minutesBefore(ev.now, FRAUD_POLICY.ip.windowMinutes), { value: ev.ip, businessId: ev.businessId });
    if (n >= FRAUD_POLICY.ip.atLeast) {
      reasons.push({ code: 'ip_burst', detail: `${plural(n, 'other submission', 'other submissions')} came from the same internet address in the last ${FRAUD_POLICY.ip.windowMinutes} minutes.` });
    }
  }
  const domain = disposableDomain(ev.customerEmail);
  if (domain) reasons.push({ code: 'disposable_email', detail: `The email address is at ${domain}, a disposable email service.` });

  const kept: Array<[FingerprintKind, string]> = [
    ...texts.map((v) => ['text', v] as [FingerprintKind, string]),
    ...images.map((v) => ['image', v] as [FingerprintKind, string]),
    ...(ev.deviceId ? [['device', ev.deviceId.slice(0, 128)] as [FingerprintKind, string]] : []),
    ['ip', ev.ip.slice(0, 128)],
  ];
  await em.insertMany(
    ResponseFingerprint,
    kept.map(([kind, value]) => ({ surveyResponseId: ev.responseId, businessId: ev.businessId, customerEmail: ev.customerEmail, kind, value, createdAt: ev.now })),
  );
  return reasons;
}
