import { createContext, useContext } from 'react';

/** The per-response CSP nonce, put on every inline and module script the page renders. */
export const NonceContext = createContext<string>('');
export const useNonce = () => useContext(NonceContext);
