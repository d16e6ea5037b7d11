/**
 * The catalogs (server only: the browser receives one language's messages in the page data, so the
 * survey island never carries all five). See index.ts and ADR 084.
 */
import de from './catalogs/de.ts';
import en from './catalogs/en.ts';
import es from './catalogs/es.ts';
import fr from './catalogs/fr.ts';
import pt from './catalogs/pt.ts';
import type { Locale, Messages, Translator } from './index.ts';
import { createTranslator } from './translator.ts';

export const CATALOGS: Readonly<Record<Locale, Messages>> = { en, es, fr, de, pt };

const slim = new Map<Locale, Messages>();

/**
 * What the page sends the browser for a language: its messages less those equal to their key (so
 * English is only its plural forms; a key missing from the catalog is its own English anyway).
 */
export function messagesFor(locale: Locale): Messages {
  let messages = slim.get(locale);
  if (!messages) {
    messages = Object.fromEntries(Object.entries(CATALOGS[locale]).filter(([key, value]) => key !== value));
    slim.set(locale, messages);
  }
  return messages;
}

/** A translator with the language's whole catalog (server-side words: the no-JavaScript form post, emails). */
export const translatorFor = (locale: Locale): Translator => createTranslator(locale, messagesFor(locale));
