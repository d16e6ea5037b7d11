import { createContext, useContext, type ReactNode } from 'react';
import { ENGLISH, type Translator } from '../../modules/i18n/index.ts';

/**
 * The customer's language on the survey page (ADR 084): the page puts its translator here; anything
 * outside it (owner pages, which stay English) reads English, every key being its own text.
 */
const I18nContext = createContext<Translator>(ENGLISH);

export function I18nProvider({ value, children }: { value: Translator; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);

/**
 * A sentence with an element inside it ('Share your experience with <b>{business}</b>'): the
 * translated words around the element, wherever the language puts it.
 */
export function withElement(text: string, marker: string, element: ReactNode): ReactNode {
  const at = text.indexOf(marker);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      {element}
      {text.slice(at + marker.length)}
    </>
  );
}

/** The marker `withElement` looks for: a value no text contains. */
export const ELEMENT = '\u0001';
