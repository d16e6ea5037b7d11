/**
 * The analytics page's query string, validated (pure: used by the loaders and the forms). Everything
 * the owner can change lives in the URL, so every view is a link that works without JavaScript and
 * can be bookmarked: `tab`, `page`, `q` (search), `language` (the customer's language, ADR 086),
 * `from`/`to` (dates, UTC, both inclusive) and, on /survey-analytics, `survey` (the picker).
 */
import { LOCALES, isLocale, type Locale } from '../i18n/index.ts';

export const TABS = ['responses', 'distribution', 'questions', 'giftcards', 'funnel'] as const;
export type Tab = (typeof TABS)[number];
export const TAB_LABELS: Readonly<Record<Tab, string>> = {
  responses: 'All Responses',
  distribution: 'Reward Distribution',
  questions: 'Question Analysis',
  giftcards: 'Issued Gift Cards',
  funnel: 'Funnel',
};

/** All Responses shows the first 10 (spec section 9), then pages of 10. */
export const RESPONSES_PAGE_SIZE = 10;
export const GIFT_CARDS_PAGE_SIZE = 25;
export const MAX_PAGE = 1_000_000;
export const MAX_SEARCH = 100;
/** The earliest and latest dates the filter accepts. */
const MIN_DATE = '2000-01-01';
const MAX_DATE = '2100-12-31';

export type AnalyticsQuery = {
  tab: Tab;
  page: number;
  q: string;
  /** Only responses in this language (older responses, stored without one, count as English); '': all. */
  language: Locale | '';
  /** YYYY-MM-DD as typed, or '' */
  from: string;
  to: string;
};

/** The time window of a query: [from, to) in UTC; null: open. `to` is the day after the last day chosen. */
export type DateWindow = { from: Date | null; to: Date | null };

export type ParsedQuery = { ok: true; query: AnalyticsQuery; window: DateWindow } | { ok: false; query: AnalyticsQuery; message: string; field: 'tab' | 'page' | 'q' | 'language' | 'from' | 'to' };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date between 2000 and 2100 as UTC midnight, or null. */
export function parseDay(text: string): Date | null {
  const m = DATE.exec(text);
  if (!m || text < MIN_DATE || text > MAX_DATE) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text ? d : null;
}

const one = (params: URLSearchParams, name: string) => (params.get(name) ?? '').trim();

/**
 * Reads the query. A wrong value comes back with the owner-facing message and the field it belongs
 * to (the page answers 400 with it and still shows the filters, so it can be fixed).
 */
export function parseAnalyticsQuery(params: URLSearchParams): ParsedQuery {
  const rawTab = one(params, 'tab');
  const rawPage = one(params, 'page');
  const q = one(params, 'q');
  const from = one(params, 'from');
  const to = one(params, 'to');
  const language = one(params, 'language');
  const query: AnalyticsQuery = { tab: 'responses', page: 1, q: q.slice(0, MAX_SEARCH), language: isLocale(language) ? language : '', from: from.slice(0, 10), to: to.slice(0, 10) };
  const fail = (field: 'tab' | 'page' | 'q' | 'language' | 'from' | 'to', message: string): ParsedQuery => ({ ok: false, query, message, field });

  if (rawTab) {
    if (!(TABS as readonly string[]).includes(rawTab)) return fail('tab', `Unknown tab "${rawTab.slice(0, 40)}". Choose one of: ${TABS.map((t) => TAB_LABELS[t]).join(', ')}.`);
    query.tab = rawTab as Tab;
  }
  if (rawPage) {
    if (!/^\d{1,7}$/.test(rawPage) || Number(rawPage) < 1 || Number(rawPage) > MAX_PAGE) return fail('page', 'The page must be a whole number of at least 1.');
    query.page = Number(rawPage);
  }
  if (q.length > MAX_SEARCH) return fail('q', `Search for at most ${MAX_SEARCH} characters.`);
  if (/\p{Cc}/u.test(q)) return fail('q', 'The search contains a character that cannot be searched for.');
  if (language && !isLocale(language)) return fail('language', `Unknown language "${language.slice(0, 20)}". Choose one of: ${LOCALES.join(', ')}.`);
  const fromDay = from ? parseDay(from) : null;
  if (from && !fromDay) return fail('from', 'The start date must be a real date (YYYY-MM-DD) between 2000 and 2100.');
  const toDay = to ? parseDay(to) : null;
  if (to && !toDay) return fail('to', 'The end date must be a real date (YYYY-MM-DD) between 2000 and 2100.');
  if (fromDay && toDay && fromDay > toDay) return fail('to', 'The end date must be on or after the start date.');
  return {
    ok: true,
    query,
    window: { from: fromDay, to: toDay ? new Date(toDay.getTime() + 86_400_000) : null },
  };
}

/** The query string of a view: only what differs from the defaults, so links stay short. */
export function analyticsSearch(query: Partial<AnalyticsQuery> & { survey?: string | null }): string {
  const params = new URLSearchParams();
  if (query.survey) params.set('survey', query.survey);
  if (query.tab && query.tab !== 'responses') params.set('tab', query.tab);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.q) params.set('q', query.q);
  if (query.language) params.set('language', query.language);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}
