import { newAccountSchema } from '../../modules/accounts/server.ts';
import { fieldErrors, type FieldErrors } from '../../modules/accounts/forms.ts';

/**
 * The trial sign-up form (spec section 5, "Trial signup form": businessName, email, password,
 * confirmPassword, agreeToTerms) checked by the same rules as every sign-up (newAccountSchema:
 * ARCHITECTURE.md settles 8 characters and a name of at least 1), with the trial form's wording.
 */
export type TrialSignup = { displayName: string; email: string; password: string; remember: boolean };

const RENAME: Record<string, string> = { displayName: 'businessName', terms: 'agreeToTerms' };
const WORDING: Record<string, string> = {
  'Invalid email address': 'Please enter a valid email address',
  'You must accept the terms': 'You must agree to the Terms of Service and Privacy Policy',
};

export function parseTrialSignup(raw: Record<string, unknown>): { ok: true; value: TrialSignup } | { ok: false; errors: FieldErrors } {
  const parsed = newAccountSchema.safeParse({
    displayName: raw.businessName ?? raw.displayName,
    email: raw.email,
    password: raw.password,
    // The JSON API (POST /api/create-subscription) sends no confirmation: the password stands for it.
    confirmPassword: raw.confirmPassword ?? raw.password,
    terms: raw.agreeToTerms ?? raw.terms,
    remember: false,
  });
  if (parsed.success) return { ok: true, value: { displayName: parsed.data.displayName, email: parsed.data.email, password: parsed.data.password, remember: false } };
  const errors: FieldErrors = {};
  for (const [key, messages] of Object.entries(fieldErrors(parsed.error))) {
    (errors[RENAME[key] ?? key] ??= []).push(...messages.map((m) => WORDING[m] ?? m));
  }
  return { ok: false, errors };
}
