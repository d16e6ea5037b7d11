import { createHash, randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { escapeHtml, type Mailer } from '../mail/index.ts';
import { posStatus } from './pos-status.ts';
import { Business } from './entities.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { newPasswordProblem } from './password-policy.ts';
import type { FieldErrors, SignUpInput } from './schemas.ts';

export const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;
/** A password-reset link works once, for one hour (issue 15). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists. Sign in instead.';
export const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password';

/** A session id as `createSessionStore` mints it (32 random bytes, base64url). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export type AccountsDeps = {
  em: EntityManager;
  mailer: Mailer;
  appUrl: string;
  logger: Logger;
  now?: () => Date;
};

export type CurrentUser = {
  id: string;
  displayName: string;
  email: string;
  isEmailVerified: boolean;
  squareConnected: boolean;
  squareLocationId: string | null;
};

export type SignUpResult = { ok: true; business: Business } | { ok: false; errors: FieldErrors };

export const GOOGLE_LINK_REFUSED_MESSAGE =
  'An account with this email already exists. Sign in with your password, or use a Google account whose email is verified.';

export type GoogleSignInResult = { ok: true; business: Business; created: boolean } | { ok: false; message: string };

export type ResetPasswordResult = { ok: true; business: Business } | { ok: false; reason: 'invalid_token' } | { ok: false; reason: 'password'; message: string };

export type GoogleIdentity = { sub: string; email: string; emailVerified: boolean; name?: string };

export function toCurrentUser(b: Business): CurrentUser {
  return {
    id: b.id,
    displayName: b.displayName,
    email: b.email,
    isEmailVerified: b.isEmailVerified,
    squareConnected: posStatus(b).isConnected,
    squareLocationId: b.squareLocationId ?? null,
  };
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** Owner accounts: sign up, sign in, Google identity, email verification. One instance per request. */
export function createAccounts(deps: AccountsDeps) {
  const { em, mailer, logger } = deps;
  const now = deps.now ?? (() => new Date());

  function issueVerification(business: Business): string {
    const token = randomBytes(32).toString('base64url');
    business.emailVerificationTokenHash = sha256(token);
    business.emailVerificationExpiresAt = new Date(now().getTime() + EMAIL_VERIFICATION_TTL_MS);
    return token;
  }

  async function sendVerificationEmail(business: Business, token: string) {
    const link = new URL(`/email-verified/${token}`, deps.appUrl).toString();
    const name = business.displayName;
    try {
      await mailer.send({
        to: business.email,
        subject: 'Confirm your RewardLoop email address',
        text: `Hello ${name},\n\nConfirm your email address for RewardLoop by opening this link:\n${link}\n\nThe link works once and expires in 48 hours. If you did not sign up, ignore this email.\n`,
        html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>Hello ${escapeHtml(name)},</p>
<p>Confirm your email address for RewardLoop:</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Confirm email address</a></p>
<p style="font-size:14px;color:#555">Or paste this link into your browser: ${escapeHtml(link)}<br>The link works once and expires in 48 hours. If you did not sign up, ignore this email.</p>
</body></html>`,
      });
    } catch (error) {
      // The account exists either way; the owner can ask for a new link from the profile page.
      logger.error({ err: error, businessId: business.id }, 'verification email could not be sent');
    }
  }

  async function sendPasswordResetEmail(business: Business, token: string) {
    const link = new URL(`/reset-password/${token}`, deps.appUrl).toString();
    const name = business.displayName;
    try {
      await mailer.send({
        to: business.email,
        subject: 'Reset your RewardLoop password',
        text: `Hello ${name},\n\nSomeone (we hope you) asked to reset the password of your RewardLoop account. Choose a new password here:\n${link}\n\nThe link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.\n`,
        html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>Hello ${escapeHtml(name)},</p>
<p>Someone (we hope you) asked to reset the password of your RewardLoop account.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Choose a new password</a></p>
<p style="font-size:14px;color:#555">Or paste this link into your browser: ${escapeHtml(link)}<br>The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.</p>
</body></html>`,
      });
    } catch (error) {
      logger.error({ err: error, businessId: business.id }, 'password reset email could not be sent');
    }
  }

  async function findByResetToken(token: string): Promise<Business | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const business = await em.findOne(Business, { passwordResetTokenHash: sha256(token) });
    if (!business?.passwordResetExpiresAt || business.passwordResetExpiresAt < now()) return null;
    return business;
  }

  async function findByToken(token: string): Promise<Business | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const business = await em.findOne(Business, { emailVerificationTokenHash: sha256(token) });
    if (!business?.emailVerificationExpiresAt || business.emailVerificationExpiresAt < now()) return null;
    return business;
  }

  return {
    async byId(id: string): Promise<Business | null> {
      return em.findOne(Business, { id });
    },

    /**
     * The signed-in owner of a session id (the `sessions` row, unexpired) in one statement: every
     * owner page reads it, so it costs one round trip, not a session read and then a business read
     * (issue 29, ADR 083). The row becomes a managed entity of this request's EntityManager.
     */
    async ownerBySession(sid: string): Promise<Business | null> {
      if (!SESSION_ID.test(sid)) return null;
      const [row] = await em.getConnection().execute<Array<Record<string, unknown>>>(
        `select b.* from sessions s
           join businesses b on b.id = case when s.sess->>'businessId' ~ '^[0-9a-fA-F-]{36}$' then (s.sess->>'businessId')::uuid end
          where s.sid = ? and s.expire > ?`,
        [sid, now()],
      );
      return row ? em.map(Business, row) : null;
    },

    /**
     * "Share labelled screenshots to improve verification" (ADR 080): the owner's consent, off by
     * default; `reward-cli verifications labels export` takes only these businesses' labelled proofs.
     */
    async setShareLabels(businessId: string, on: boolean): Promise<void> {
      await em.nativeUpdate(Business, { id: businessId }, { shareLabels: on });
    },
    async byEmail(email: string): Promise<Business | null> {
      return em.findOne(Business, { email: email.trim().toLowerCase() });
    },

    async signUp(input: Pick<SignUpInput, 'displayName' | 'email' | 'password'>): Promise<SignUpResult> {
      const email = input.email.trim().toLowerCase();
      if (await em.count(Business, { email })) return { ok: false, errors: { email: [DUPLICATE_EMAIL_MESSAGE] } };
      const business = em.create(Business, {
        email,
        displayName: input.displayName.trim(),
        hashedPassword: await hashPassword(input.password),
      });
      const token = issueVerification(business);
      try {
        await em.flush();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) {
          em.clear();
          return { ok: false, errors: { email: [DUPLICATE_EMAIL_MESSAGE] } };
        }
        throw error;
      }
      await sendVerificationEmail(business, token);
      return { ok: true, business };
    },

    /** The business for these credentials, or null. Costs the same whether or not the email exists. */
    async signIn(emailInput: string, password: string): Promise<Business | null> {
      const business = await em.findOne(Business, { email: emailInput.trim().toLowerCase() });
      const ok = await verifyPassword(business?.hashedPassword, password);
      return ok && business ? business : null;
    },

    /**
     * Finds or creates the owner for a verified Google identity. An existing password account is
     * linked only when Google says the email is verified.
     */
    async signInWithGoogle(identity: GoogleIdentity): Promise<GoogleSignInResult> {
      const bySub = await em.findOne(Business, { googleId: identity.sub });
      if (bySub) return { ok: true, business: bySub, created: false };
      const email = identity.email.trim().toLowerCase();
      const byEmail = await em.findOne(Business, { email });
      if (byEmail) {
        if (!identity.emailVerified || byEmail.googleId) return { ok: false, message: GOOGLE_LINK_REFUSED_MESSAGE };
        byEmail.googleId = identity.sub;
        byEmail.isEmailVerified = true;
        await em.flush();
        return { ok: true, business: byEmail, created: false };
      }
      const business = em.create(Business, {
        email,
        displayName: identity.name?.trim().slice(0, 255) || email.split('@')[0] || email,
        googleId: identity.sub,
        isEmailVerified: identity.emailVerified,
      });
      await em.flush();
      return { ok: true, business, created: true };
    },

    /** True when the token is known and unexpired; changes nothing. */
    async checkVerificationToken(token: string): Promise<boolean> {
      return (await findByToken(token)) !== null;
    },

    /** Marks the owner's email verified; false when the token is unknown, used or expired. */
    async verifyEmail(token: string): Promise<boolean> {
      const business = await findByToken(token);
      if (!business) return false;
      business.isEmailVerified = true;
      business.emailVerificationTokenHash = null;
      business.emailVerificationExpiresAt = null;
      await em.flush();
      return true;
    },

    /**
     * Mails a single-use reset link (1 hour) when an account has this email; a new request replaces
     * the previous link. The caller answers the same whether or not the account exists, so the
     * email is sent after this returns (the time taken does not tell either).
     */
    async requestPasswordReset(emailInput: string): Promise<{ send: () => Promise<void> }> {
      const business = await em.findOne(Business, { email: emailInput.trim().toLowerCase() });
      if (!business) return { send: async () => {} };
      const token = randomBytes(32).toString('base64url');
      business.passwordResetTokenHash = sha256(token);
      business.passwordResetExpiresAt = new Date(now().getTime() + PASSWORD_RESET_TTL_MS);
      await em.flush();
      return { send: () => sendPasswordResetEmail(business, token) };
    },

    /** True when the reset token is known and unexpired; changes nothing (mail scanners open links). */
    async checkPasswordResetToken(token: string): Promise<boolean> {
      return (await findByResetToken(token)) !== null;
    },

    /**
     * Sets a new password with a reset token and spends the token. The caller ends every session of
     * the owner. A reset also proves the owner reads the account's email.
     */
    async resetPassword(token: string, password: string): Promise<ResetPasswordResult> {
      const business = await findByResetToken(token);
      if (!business) return { ok: false, reason: 'invalid_token' };
      const problem = newPasswordProblem(password, business.email);
      if (problem) return { ok: false, reason: 'password', message: problem };
      const hashedPassword = await hashPassword(password);
      // Spends the token only if nobody spent it meanwhile (two tabs submitting at once).
      const spent = await em.nativeUpdate(
        Business,
        { id: business.id, passwordResetTokenHash: sha256(token) },
        { hashedPassword, passwordResetTokenHash: null, passwordResetExpiresAt: null, isEmailVerified: true },
      );
      em.clear();
      return spent === 1 ? { ok: true, business } : { ok: false, reason: 'invalid_token' };
    },

    /** A fresh link for an owner whose email is not verified yet. */
    async resendVerification(business: Business): Promise<void> {
      if (business.isEmailVerified) return;
      const token = issueVerification(business);
      await em.flush();
      await sendVerificationEmail(business, token);
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
