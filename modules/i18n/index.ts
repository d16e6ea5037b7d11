/**
 * The customer's language (issue 30, ADR 084): which languages exist, how a request picks one, and
 * the translator the survey page uses on the server and in the browser (i18next, one instance per
 * page, holding only the chosen language's messages). Keys are the English words themselves
 * (i18next's natural-language keys), so English is the key and a text no catalog knows (the owner's
 * own questions, a server message not yet translated) falls back to itself. The catalogs are in
 * `server.ts`: the browser gets one language's messages in the page data, never all five. i18next
 * itself is in `translator.ts`, a face of its own so that the survey island loads it only for a
 * language other than English (ADR 084: its size).
 */

export const LOCALES = ['en', 'es', 'fr', 'de', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** Each language named in itself, for the switcher. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', es: 'Español', fr: 'Français', de: 'Deutsch', pt: 'Português' };
/** Each language named in English, for owner pages (which stay English): analytics' language column and filter. */
export const LOCALE_ENGLISH_NAMES: Readonly<Record<Locale, string>> = { en: 'English', es: 'Spanish', fr: 'French', de: 'German', pt: 'Portuguese' };
/** The cookie that remembers a language chosen with `?lang=` (a year). */
export const LOCALE_COOKIE = 'rl_lang';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** 'pt-BR' -> 'pt', 'ES' -> 'es'; null when not one of ours. */
export function localeOf(tag: string | null | undefined): Locale | null {
  const base = String(tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : null;
}

/**
 * The first language of an Accept-Language header we have (and, given `offered`, that the survey
 * offers), by its q-values; null when none.
 */
export function fromAcceptLanguage(header: string | null | undefined, offered: readonly Locale[] = LOCALES): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { locale: localeOf(tag), weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((x): x is { locale: Locale; weight: number; i: number } => x.locale !== null && x.weight > 0 && offered.includes(x.locale))
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  return ranked[0]?.locale ?? null;
}

/**
 * A survey's languages as stored (ADR 086): known codes only, each once, in the owner's order (the
 * first is the survey's default language); anything unreadable or empty is `['en']`, as before the
 * choice existed.
 */
export function surveyLocales(value: unknown): Locale[] {
  const list = Array.isArray(value) ? value.filter(isLocale) : [];
  const unique = [...new Set(list)];
  return unique.length > 0 ? unique : [DEFAULT_LOCALE];
}

/**
 * The language a response is stored in (ADR 086): the one the customer asked for when the survey
 * offers it, else the survey's first language. Never a language the survey does not offer.
 */
export function offeredLocale(asked: string | null | undefined, offered: readonly Locale[]): Locale {
  const locale = localeOf(asked);
  const languages = offered.length > 0 ? offered : [DEFAULT_LOCALE];
  return locale && languages.includes(locale) ? locale : languages[0]!;
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of String(header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

export type LocaleSource = 'query' | 'cookie' | 'header' | 'default';

/**
 * The customer's language: `?lang=` first, then the cookie, then Accept-Language, else the survey's
 * first language (English when there is no survey). Given `offered` (the survey's languages, ADR
 * 086), each of them counts only when the survey offers it. An unknown or not offered `?lang=` or
 * cookie value is skipped, not an error: the page still renders.
 */
export function pickLocale(input: { query?: string | null; cookie?: string | null; acceptLanguage?: string | null; offered?: readonly Locale[] }): { locale: Locale; source: LocaleSource } {
  const offered = input.offered && input.offered.length > 0 ? input.offered : LOCALES;
  const ours = (tag: string | null | undefined) => {
    const locale = localeOf(tag);
    return locale && offered.includes(locale) ? locale : null;
  };
  const query = ours(input.query);
  if (query) return { locale: query, source: 'query' };
  const cookie = ours(cookieValue(input.cookie, LOCALE_COOKIE));
  if (cookie) return { locale: cookie, source: 'cookie' };
  const header = fromAcceptLanguage(input.acceptLanguage, offered);
  if (header) return { locale: header, source: 'header' };
  return { locale: input.offered && input.offered.length > 0 ? input.offered[0]! : DEFAULT_LOCALE, source: 'default' };
}

/** The Set-Cookie value that keeps a chosen language for this browser. */
export const localeCookie = (locale: Locale) => `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;

/** One language's messages: English key -> words (plural keys end in _one/_other, as i18next reads them). */
export type Messages = Readonly<Record<string, string>>;

export type Translate = (key: string, values?: Record<string, string | number>) => string;

export type Translator = {
  locale: Locale;
  t: Translate;
  /** True when the catalog has this key (a template text the owner left as it was). */
  has: (key: string) => boolean;
  /** Money in whole dollars for this locale ('$5', '5 $'); without a tier, 0 with cents ('$0.00'). */
  money: (cents: number, whole?: boolean) => string;
  /** A number for this locale. */
  number: (n: number) => string;
};

/** Intl's tag per language; USD shown with its narrow symbol ('$') in every language. */
const INTL_TAG: Readonly<Record<Locale, string>> = { en: 'en-US', es: 'es', fr: 'fr', de: 'de', pt: 'pt' };

const formats = new Map<Locale, Pick<Translator, 'money' | 'number'>>();

/**
 * Money and numbers for a language (Intl): whole dollars ('$5', '5 $'), or with cents ('$0.00').
 * Intl's formatters cost more to make than to use, so each locale's are made once per process and
 * shared by every page (issue 29: they were 5% of a survey page's CPU).
 */
export function formatsFor(locale: Locale): Pick<Translator, 'money' | 'number'> {
  const known = formats.get(locale);
  if (known) return known;
  const tag = INTL_TAG[locale];
  const whole = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const cents = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' });
  const numbers = new Intl.NumberFormat(tag);
  const made: Pick<Translator, 'money' | 'number'> = {
    money: (amount, asWhole = true) => (asWhole ? whole.format(Math.round(amount / 100)) : cents.format(amount / 100)),
    number: (n) => numbers.format(n),
  };
  formats.set(locale, made);
  return made;
}

const ENGLISH_PLURAL = new Intl.PluralRules('en-US');

/**
 * English in the browser without i18next (ADR 084): a key is its own English, so all English needs
 * is `{{name}}` filled in and the plural form of `count` (`key_one`/`key_other` from `messages`, by
 * Intl.PluralRules, as i18next picks it). `translator.test.ts` holds it to i18next's English for
 * every key of the catalog, so the server and the island can never render English differently.
 */
export function englishTranslator(messages: Messages = {}): Translator {
  const plural = ENGLISH_PLURAL;
  const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  const t: Translate = (key, values = {}) => {
    const count = values.count;
    const form = typeof count === 'number' ? messages[`${key}_${plural.select(count)}`] : undefined;
    return fill(form ?? messages[key] ?? key, values);
  };
  return { locale: 'en', t, has: (key) => key in messages || `${key}_other` in messages, ...formatsFor('en') };
}

/** English with no catalog: every key is its own text (owner pages, and a component outside the survey page). */
export const ENGLISH: Translator = englishTranslator();

/**
 * The customer's words for each verifier rejection code (issue 13's `rejectionCode`), in English as
 * the catalog key (ADR 090). The verifier's own `rejectionReason` stays English (the verify APIs'
 * contract, spec 7) and is what an English page shows, being the more exact; in another language
 * the page says the code's sentence, the platform named. A code no one knows gets the generic line.
 */
export const REJECTION_MESSAGES: Readonly<Record<string, string>> = {
  name_mismatch: 'The name on this {{platform}} review is not the reviewer name you entered. Enter your name as it appears on your review.',
  wrong_business: 'This {{platform}} screenshot is not about this business. Upload a screenshot of your own review, follow or post for this business.',
  wrong_platform: 'This screenshot is not from {{platform}}. Upload a screenshot taken on {{platform}}.',
  not_a_review: 'This does not look like your {{platform}} review. Upload a screenshot of the review itself, showing your name and the date.',
  not_posted: 'This {{platform}} review does not look posted, or its link is missing. Post it, then paste the link to your review.',
  not_following: 'This screenshot does not show that you follow us on {{platform}}. Upload a screenshot of our profile that shows you follow us.',
  wrong_account: 'This screenshot is of another {{platform}} account, or your handle is missing. Upload a screenshot of our profile and enter your handle.',
  missing_mention: 'We could not find our tag in this {{platform}} post. Tag us in the post, then upload a new screenshot.',
  author_mismatch: 'This {{platform}} post does not look like yours: check the handle you entered, or upload a screenshot of your own post.',
  duplicate: 'This screenshot has already been used for a reward here. Each review, follow or post can earn a reward only once.',
  unreadable: 'We could not read this screenshot. Upload a clear, full screenshot saved as PNG, JPEG or WebP.',
};

/**
 * What the customer reads when a screenshot is rejected (ADR 090): in English the verifier's own
 * words (`english`), in another language the sentence of its code, the platform named.
 */
export function rejectionMessage(tr: Pick<Translator, 'locale' | 't'>, code: string | null | undefined, english: string | null | undefined, platform: string): string {
  if (tr.locale === 'en' && english) return english;
  const key = code ? REJECTION_MESSAGES[code] : undefined;
  return key ? tr.t(key, { platform }) : tr.t('Please upload a different screenshot.');
}
