import type { GoogleIdentity } from './service.ts';

/**
 * The port through which a Google ID token (the `credential` of Google's sign-in prompt) becomes a
 * verified identity: signature against Google's published keys, audience = our client id, issuer, expiry.
 */
export interface GoogleIdTokenVerifier {
  verify(credential: string): Promise<{ ok: true; identity: GoogleIdentity } | { ok: false; reason: string }>;
}
