import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { GoogleIdTokenVerifier } from '../../modules/accounts/index.ts';

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** Verifies Google ID tokens with jose against Google's JWKS (fetched and cached by jose). */
export class JoseGoogleIdTokenVerifier implements GoogleIdTokenVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  private readonly clientId: string;

  constructor(options: { clientId: string; jwksUrl?: string }) {
    this.clientId = options.clientId;
    this.keys = createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_JWKS_URL), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
  }

  async verify(credential: string) {
    if (typeof credential !== 'string' || credential.split('.').length !== 3) {
      return { ok: false as const, reason: 'The Google credential is not a valid token.' };
    }
    try {
      const { payload } = await jwtVerify(credential, this.keys, { issuer: ISSUERS, audience: this.clientId, clockTolerance: 30 });
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') {
        return { ok: false as const, reason: 'The Google token has no account email.' };
      }
      return {
        ok: true as const,
        identity: {
          sub: payload.sub,
          email: payload.email,
          emailVerified: payload.email_verified === true || payload.email_verified === 'true',
          name: typeof payload.name === 'string' ? payload.name : undefined,
        },
      };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false as const, reason: 'The Google sign-in has expired. Please try again.' };
      if (error instanceof errors.JWTClaimValidationFailed) return { ok: false as const, reason: 'The Google token was not issued for RewardLoop.' };
      if (error instanceof errors.JOSEError) return { ok: false as const, reason: 'The Google token could not be verified.' };
      throw error;
    }
  }
}
