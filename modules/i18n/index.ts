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
/** The cookie that remembers a language chosen with `?lang=` (a year). */
export const LOCALE_COOKIE = 'rl_lang';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** 'pt-BR' -> 'pt', 'ES' -> 'es'; null when not one of ours. */
export function localeOf(tag: string | null | undefined): Locale | null {
  const base = String(tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : null;
}

/** The first language of an Accept-Language header we have, by its q-values; null when none. */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
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
    .filter((x): x is { locale: Locale; weight: number; i: number } => x.locale !== null && x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  return ranked[0]?.locale ?? null;
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
 * The customer's language: `?lang=` first, then the cookie, then Accept-Language, else English.
 * An unknown `?lang=` or cookie value is skipped, not an error: the page still renders.
 */
export function pickLocale(input: { query?: string | null; cookie?: string | null; acceptLanguage?: string | null }): { locale: Locale; source: LocaleSource } {
  const query = localeOf(input.query);
  if (query) return { locale: query, source: 'query' };
  const cookie = localeOf(cookieValue(input.cookie, LOCALE_COOKIE));
  if (cookie) return { locale: cookie, source: 'cookie' };
  const header = fromAcceptLanguage(input.acceptLanguage);
  if (header) return { locale: header, source: 'header' };
  return { locale: DEFAULT_LOCALE, source: 'default' };
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

/** Money and numbers for a language (Intl): whole dollars ('$5', '5 $'), or with cents ('$0.00'). */
export function formatsFor(locale: Locale): Pick<Translator, 'money' | 'number'> {
  const tag = INTL_TAG[locale];
  const whole = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const cents = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' });
  const numbers = new Intl.NumberFormat(tag);
  return {
    money: (amount, asWhole = true) => (asWhole ? whole.format(Math.round(amount / 100)) : cents.format(amount / 100)),
    number: (n) => numbers.format(n),
  };
}

/**
 * English in the browser without i18next (ADR 084): a key is its own English, so all English needs
 * is `{{name}}` filled in and the plural form of `count` (`key_one`/`key_other` from `messages`, by
 * Intl.PluralRules, as i18next picks it). `translator.test.ts` holds it to i18next's English for
 * every key of the catalog, so the server and the island can never render English differently.
 */
export function englishTranslator(messages: Messages = {}): Translator {
  const plural = new Intl.PluralRules('en-US');
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
