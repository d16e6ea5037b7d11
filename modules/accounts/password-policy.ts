import { dictionary } from '@zxcvbn-ts/language-common';
import { EMAIL_PASSWORD_MESSAGE, signUpSchema } from './schemas.ts';

/**
 * The server's half of the password rules (ADR 005): the ~49,000 most common passwords of
 * @zxcvbn-ts/language-common (maintained with zxcvbn-ts), compared case-insensitively. Kept out of
 * schemas.ts so the list never reaches the browser bundle; the sign-up form shows this message from
 * the server's reply.
 */
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose one that is harder to guess.';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.trim().toLowerCase());
}

/** The sign-up schema with the common-password check: /auth, /api/auth/signup and `reward-cli accounts create`. */
export const newAccountSchema = signUpSchema.refine((v) => !isCommonPassword(v.password), { path: ['password'], message: COMMON_PASSWORD_MESSAGE });

/** The server-side rules of a new password for an existing account (a reset): the message, or null when it is acceptable. */
export function newPasswordProblem(password: string, email: string): string | null {
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return EMAIL_PASSWORD_MESSAGE;
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  return null;
}
