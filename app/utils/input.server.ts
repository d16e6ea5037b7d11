import { apiError } from './api.server.ts';

/**
 * The one door for request bodies (issue 9). Every action reads its body through `readForm`,
 * `readJsonObject`/`readJson` (api.server.ts) or `readText`, never through `request.formData()` and
 * friends (an ESLint rule enforces it): a wrong or missing Content-Type is a 415, a body that does
 * not parse is a 400, and text PostgreSQL cannot store (U+0000, an unpaired UTF-16 surrogate) is a
 * 400 naming the field, before any of it reaches a query.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text the database cannot store: U+0000 or an unpaired surrogate. */
export function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

export function unstorableMessage(field: string): string {
  return `${field} contains a character that cannot be saved (U+0000 or an unpaired surrogate). Please remove it and try again.`;
}

/** The first field (a dotted path) of a JSON value whose key or text cannot be stored; null when all can. */
export function unstorableField(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isUnstorable(value) ? path || 'body' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (isUnstorable(key)) return at;
    const found = unstorableField(inner, at);
    if (found) return found;
  }
  return null;
}

/** A 400 that names the field with text the database cannot store. */
export function unstorableError(field: string): Response {
  const message = unstorableMessage(field);
  return apiError(400, message, { fieldErrors: { [field]: [message] } });
}

export const FORM_TYPE_MESSAGE = 'Send the form as application/x-www-form-urlencoded or multipart/form-data.';
export const FORM_UNREADABLE_MESSAGE = 'The form could not be read. Please try again.';

/** True when the request says it carries a form (url-encoded or multipart). */
export function isFormType(request: Request): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(request.headers.get('Content-Type') ?? '');
}

/**
 * A page action's form: throws a 415 for another Content-Type, a 400 for a body that does not parse
 * (a broken multipart body) and a 400 naming the field whose text cannot be stored.
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!isFormType(request)) throw apiError(415, FORM_TYPE_MESSAGE);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw apiError(400, FORM_UNREADABLE_MESSAGE);
  }
  checkFormText(form);
  return form;
}

/** Throws the 400 of `unstorableError` for the first text field (name or value) the database cannot store. */
export function checkFormText(form: FormData): void {
  for (const [key, value] of form) {
    if (isUnstorable(key) || (typeof value === 'string' && isUnstorable(value))) throw unstorableError(key);
  }
}

/** A raw text body (a webhook's, whose signature covers the exact bytes); a 400 when it cannot be stored. */
export async function readText(request: Request): Promise<string> {
  const text = await request.text();
  if (isUnstorable(text)) throw unstorableError('body');
  return text;
}
