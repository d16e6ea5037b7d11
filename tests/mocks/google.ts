import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { http, HttpResponse } from 'msw';

export const GOOGLE_CLIENT_ID = 'test-client.apps.googleusercontent.com';

export type GoogleUser = { sub: string; email: string; email_verified: boolean; name: string };

/**
 * Google at the network edge: its published JWKS, the OAuth token endpoint and userinfo.
 * `signIdToken` makes ID tokens with the published key (or another key, to test rejection).
 */
export async function createGoogleMock() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, GoogleUser>();
  const tokens = new Map<string, GoogleUser>();

  async function signIdToken(
    user: GoogleUser,
    options: { audience?: string; issuer?: string; expiresIn?: string | number; key?: CryptoKey; kid?: string } = {},
  ) {
    return new SignJWT({ email: user.email, email_verified: user.email_verified, name: user.name })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key-1' })
      .setSubject(user.sub)
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '1h')
      .sign(options.key ?? privateKey);
  }

  const handlers = [
    http.get('https://www.googleapis.com/oauth2/v3/certs', () => HttpResponse.json({ keys: [jwk] })),
    http.post('https://oauth2.googleapis.com/token', async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const user = codes.get(form.get('code') ?? '');
      if (!user || form.get('client_id') !== GOOGLE_CLIENT_ID) return HttpResponse.json({ error: 'invalid_grant' }, { status: 400 });
      codes.delete(form.get('code')!);
      const accessToken = `at-${Math.random().toString(36).slice(2)}`;
      tokens.set(accessToken, user);
      return HttpResponse.json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile' });
    }),
    http.get('https://www.googleapis.com/oauth2/v3/userinfo', ({ request }) => {
      const user = tokens.get((request.headers.get('Authorization') ?? '').replace('Bearer ', ''));
      if (!user) return HttpResponse.json({ error: 'invalid_token' }, { status: 401 });
      return HttpResponse.json({ ...user, given_name: user.name.split(' ')[0], family_name: '', picture: '' });
    }),
  ];

  return {
    handlers,
    signIdToken,
    /** An authorization code Google would hand back for this user. */
    issueCode(user: GoogleUser) {
      const code = `code-${Math.random().toString(36).slice(2)}`;
      codes.set(code, user);
      return code;
    },
  };
}
