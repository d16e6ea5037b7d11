import { z } from 'zod';

/**
 * Account forms, shared by conform in the browser and by the actions and JSON API on the server.
 * Messages follow spec section 5; the password minimum is 8 everywhere (ARCHITECTURE.md).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const email = z
  .string({ error: 'Invalid email address' })
  .trim()
  .toLowerCase()
  .min(1, 'Invalid email address')
  .max(255, 'Email must be at most 255 characters')
  .pipe(z.email('Invalid email address'));

const password = z
  .string({ error: `Password must be at least ${PASSWORD_MIN} characters` })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const WHITESPACE_PASSWORD_MESSAGE = 'Password cannot be only spaces';
export const EMAIL_PASSWORD_MESSAGE = 'Password must not be your email address';

/** A new password (sign-up, the CLI): also not whitespace only (ADR 005). The common-password list is server-side (password-policy.ts). */
const newPassword = password.refine((v) => v.trim() !== '', WHITESPACE_PASSWORD_MESSAGE);

const checkbox = z.preprocess(
  (v) => v === true || v === 'on' || v === 'true',
  z.boolean(),
);

export const signInSchema = z.object({
  email,
  password,
  remember: checkbox.default(false),
});
export type SignInInput = z.output<typeof signInSchema>;

export const signUpSchema = z
  .object({
    displayName: z
      .string({ error: 'Business name is required' })
      .trim()
      .min(1, 'Business name is required')
      .max(255, 'Business name must be at most 255 characters'),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: "Passwords don't match" }),
    terms: checkbox.refine((v) => v, 'You must accept the terms'),
    remember: checkbox.default(false),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: "Passwords don't match",
  })
  .refine((v) => v.password.trim().toLowerCase() !== v.email, { path: ['password'], message: EMAIL_PASSWORD_MESSAGE });
export type SignUpInput = z.output<typeof signUpSchema>;

/** /forgot-password: the address to send a reset link to. */
export const forgotPasswordSchema = z.object({ email });

/** /reset-password/{token}: the new password twice (the common-password and email checks are server-side). */
export const resetPasswordSchema = z
  .object({
    password: newPassword,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: "Passwords don't match" });

/** Field errors keyed by field name, as the JSON API returns them. */
export type FieldErrors = Record<string, string[]>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'form';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
