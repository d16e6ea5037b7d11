/**
 * A submission's key (ADR 081): the survey page gets one per visit from its loader and sends it with
 * the answers (the JSON body's `submissionKey`, the form's `_key`). A retry after a lost answer sends
 * the same key and is answered with the stored submission. 128 random bits: not guessable, so
 * another visitor cannot read a stored result through it.
 */
export const SUBMISSION_KEY = /^[A-Za-z0-9_-]{16,64}$/;

export const isSubmissionKey = (value: unknown): value is string => typeof value === 'string' && SUBMISSION_KEY.test(value);

/** 16 random bytes as base64url (22 characters), from the Web Crypto every runtime here has. */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
