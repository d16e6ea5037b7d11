import { isUnstorable, unstorableMessage } from '../../modules/shared/index.ts';
import { apiError } from './api.server.ts';

/**
 * The one door for request bodies (issue 9). Every action reads its body through `readForm`,
 * `readJsonObject`/`readJson` (api.server.ts) or `readText`, never through `request.formData()` and
 * friends (an ESLint rule enforces it): a wrong or missing Content-Type is a 415, a body that does
 * not parse is a 400, and text PostgreSQL cannot store (U+0000, an unpaired UTF-16 surrogate) is a
 * 400 naming the field, before any of it reaches a query.
 */

// The checks live in modules/shared/json.ts (pure, so the builder's schema uses them in the browser too).
export { isUnstorable, unstorableMessage } from '../../modules/shared/index.ts';

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
 * What a form may be (issue 25). Form bodies are flat, but conform reads field names as paths
 * (`a.b[0].c`) and builds nested objects from them, recursively: a name with 20,000 levels overflows
 * the stack. So a name has at most 64 levels and 1,000 characters, and a form at most 1,000 fields.
 * Values are left to each form's schema and the body limit; JSON inside a field (the builder's
 * question list, a handed-over draft) is read by `parseJsonWithLimits` (modules/shared/json.ts).
 */
export const FORM_LIMITS = { maxFields: 1_000, maxNameDepth: 64, maxNameLength: 1_000 } as const;

/** The levels of a field name as conform reads it: `a` is 1, `a.b[0]` is 3. */
function nameDepth(name: string): number {
  let depth = 1;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2e || c === 0x5b) depth++;
  }
  return depth;
}

/** A form's limits and text, checked before anything reads its fields: throws a 400 that says what is wrong. */
export function checkForm(form: FormData): void {
  let fields = 0;
  for (const [key] of form) {
    fields += 1;
    if (fields > FORM_LIMITS.maxFields) throw apiError(400, `The form has too many fields: at most ${FORM_LIMITS.maxFields.toLocaleString('en-US')}.`);
    if (nameDepth(key) > FORM_LIMITS.maxNameDepth) throw apiError(400, `The form is nested too deeply: a field name has more than ${FORM_LIMITS.maxNameDepth} levels.`);
    if (key.length > FORM_LIMITS.maxNameLength) throw apiError(400, `The form has a field name that is too long: at most ${FORM_LIMITS.maxNameLength.toLocaleString('en-US')} characters.`);
  }
  checkFormText(form);
}

/**
 * A page action's form: throws a 415 for another Content-Type, a 400 for a body that does not parse
 * (a broken multipart body), a 400 for a form over FORM_LIMITS and a 400 naming the field whose text
 * cannot be stored.
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!isFormType(request)) throw apiError(415, FORM_TYPE_MESSAGE);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw apiError(400, FORM_UNREADABLE_MESSAGE);
  }
  checkForm(form);
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
