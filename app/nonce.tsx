import { createContext, useContext } from 'react';

/** The per-response CSP nonce, put on every inline and module script the page renders. */
export const NonceContext = createContext<string>('');
export const useNonce = () => useContext(NonceContext);

/** The survey page's own stylesheet in production (ADR 092), inlined there instead of linking the app's; empty elsewhere. */
export const SurveyStyleContext = createContext<string>('');
export const useSurveyStyle = () => useContext(SurveyStyleContext);
