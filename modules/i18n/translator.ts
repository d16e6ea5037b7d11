/**
 * The translator over i18next (ADR 084): one instance per page and language, holding only that
 * language's messages (natural-language keys: no key or namespace separators, a missing key is its
 * own English). English gets `englishTranslator` (index.ts), which needs no library; this file is a
 * face of its own so the survey island imports it only when the customer reads another language.
 */
import i18next, { type TFunction } from 'i18next';
import { englishTranslator, formatsFor, type Locale, type Messages, type Translator } from './index.ts';

/** i18next for any language (tests compare English through it with `englishTranslator`). */
export function i18nextTranslator(locale: Locale, messages: Messages = {}): Translator {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: false,
    initAsync: false,
    resources: { [locale]: { translation: messages } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const t: TFunction = instance.t;
  return {
    locale,
    t: (key, values) => String(t(key, values ?? {})),
    has: (key) => instance.exists(key) || instance.exists(`${key}_other`),
    ...formatsFor(locale),
  };
}

/** The page's translator: English without a library, every other language through i18next. */
export const createTranslator = (locale: Locale, messages: Messages = {}): Translator =>
  locale === 'en' ? englishTranslator(messages) : i18nextTranslator(locale, messages);
