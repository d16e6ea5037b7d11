import { PLATFORM_LABELS, TEMPLATES, verificationKindOf, type Platform, type Question, type QuestionType } from '../surveys/index.ts';

/**
 * The one question-key label map (spec section 2: "A label map for known question keys exists").
 * Every answer key a template accepts gets a short label an owner reads at a glance: the question
 * ids of every template, their composite `{questionId}_{fieldId}` keys ("Google review: Reviewer
 * name") and the contact keys. Pure data, built once from the templates: a question added to a
 * template is labelled without touching this file. Used by the response detail page, Question
 * Analysis and anything else that shows an answer key to a person.
 */

/** Short labels for the built-in questions; a question not listed here falls back to its text. */
const SHORT: Readonly<Record<string, string>> = {
  overall_rating: 'Overall rating',
  customer_email: 'Email',
  recommend: 'Would recommend us',
  visit_frequency: 'Visit frequency',
  service_rating: 'Service rating',
  favorite_item: 'Favorite item',
  atmosphere_rating: 'Atmosphere rating',
  value_rating: 'Value for money',
  improvement_suggestions: 'What we could do better',
  five_star_improvement: 'How to earn 5 stars',
};

const CONTACT: Readonly<Record<string, string>> = {
  customerEmail: 'Email',
  customerName: 'Name',
  customer_name: 'Name',
};

function blockLabel(q: Question): string {
  const kind = verificationKindOf(q);
  return kind ? `${PLATFORM_LABELS[q.platform as Platform]} ${kind}` : q.text;
}

/** `platform`: set on a part-3 block's question and its fields (the survey asks it only when the owner chose that platform). */
export type QuestionInfo = { key: string; label: string; type: QuestionType | 'contact' | 'field'; fieldType?: 'text' | 'url' | 'image_upload'; platform?: Platform; order: number };

function buildMap(): Map<string, QuestionInfo> {
  const map = new Map<string, QuestionInfo>();
  let order = 0;
  const add = (info: Omit<QuestionInfo, 'order'>) => {
    if (!map.has(info.key)) map.set(info.key, { ...info, order: order++ });
  };
  for (const [key, label] of Object.entries(CONTACT)) add({ key, label, type: 'contact' });
  for (const template of Object.values(TEMPLATES)) {
    for (const section of template.sections) {
      for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
        const label = SHORT[q.id] ?? (q.platform ? blockLabel(q) : q.text);
        const platform = q.platform ? { platform: q.platform } : {};
        add({ key: q.id, label, type: q.type, ...platform });
        for (const f of q.fields ?? []) add({ key: `${q.id}_${f.id}`, label: `${label}: ${f.text.charAt(0).toLowerCase()}${f.text.slice(1)}`, type: 'field', fieldType: f.type, ...platform });
      }
    }
  }
  return map;
}

/** Every known answer key, in the order the survey asks them (contact keys first). */
export const QUESTION_LABELS: ReadonlyMap<string, QuestionInfo> = /* @__PURE__ */ buildMap();

/** A key's label; an unknown key (an answer of a question since removed) is shown humanised. */
export function questionLabel(key: string): string {
  const known = QUESTION_LABELS.get(key);
  if (known) return known.label;
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/** Question types analysed on the Question Analysis tab: what a customer answers in words or on a scale. */
export const ANALYSED_TYPES: ReadonlySet<QuestionType> = new Set(['scale', 'yes_no', 'multiple_choice', 'short_text', 'text']);

/** The answer keys Question Analysis covers, in survey order: no contact details, no part-3 proof fields. */
export function analysedQuestions(): QuestionInfo[] {
  return [...QUESTION_LABELS.values()].filter((q) => q.type !== 'contact' && q.type !== 'field' && ANALYSED_TYPES.has(q.type as QuestionType));
}

/** A response's reward: issued (a card exists), held for review, rejected by the owner, earned and not issued yet, or none earned. */
export type RewardStatus = 'issued' | 'held' | 'rejected' | 'pending' | 'none';

/** How a response's reward status reads on All Responses and in the CSV (issue 27 item 4). */
export const REWARD_STATUS_LABELS: Readonly<Record<RewardStatus, string>> = {
  issued: 'Issued',
  held: 'Held for review',
  rejected: 'Rejected',
  pending: 'Not issued yet',
  none: 'No reward',
};

/** A platform id as an owner reads it ('google' -> 'Google'); an unknown id as stored. */
export function platformName(platform: string): string {
  return (PLATFORM_LABELS as Readonly<Record<string, string>>)[platform] ?? platform;
}

/** One verified proof of a response, `{platform}:{kind}` -> 'Google review', 'Instagram follow'. */
export function proofLabel(proof: string): string {
  const [platform = '', kind = ''] = proof.split(':');
  return `${platformName(platform)} ${kind}`.trim();
}
