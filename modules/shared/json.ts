/**
 * JSON that came from outside (a request body, a form field holding JSON), parsed with limits checked
 * before anything walks it (issue 25). Pure: no Node built-ins, so the builder's schema can use it in
 * the browser too.
 *
 * Why not just JSON.parse: V8's JSON.parse is itself iterative and builds `{"a":{"a":…}}` 1,000,000
 * levels deep without complaint, but everything after it that recurses (a recursive walk, zod on a
 * recursive schema, JSON.stringify when the value is stored or logged) then throws `RangeError:
 * Maximum call stack size exceeded`, a 500. So the nesting depth is counted on the raw text first (a
 * scan of brackets outside strings, no recursion, nothing built), and only text within the depth limit
 * is parsed; one iterative walk of the parsed value (an explicit stack, at most `maxDepth` deep) then
 * checks the other limits and the text the database cannot store. No library does this scan and walk
 * with these messages in fewer lines; the scan is about 20.
 *
 * What it refuses, with a message a person can act on:
 * - more than `maxChars` characters of text, more than `maxDepth` levels of `{`/`[`;
 * - an object with more than `maxKeys` fields, a list of more than `maxItems` items, a string of more
 *   than `maxStringLength` characters;
 * - a number JSON.parse turns into Infinity (`1e309`): JSON.stringify would store it as null;
 * - the field names `__proto__`, `constructor` and `prototype`: none of our bodies uses them, and code
 *   that copies fields by assignment (`target[key] = value`, Object.assign) would set an object's
 *   prototype through `__proto__`;
 * - text PostgreSQL cannot store: U+0000 or an unpaired UTF-16 surrogate (a `\u0000` or `\ud800`
 *   escape), in a key or a value.
 */

export type JsonLimits = {
  /** Characters of JSON text (UTF-16 units; the HTTP edge and readJsonObject count bytes). */
  maxChars: number;
  /** Levels of nested objects and arrays: `{"a":{"b":1}}` is 2. */
  maxDepth: number;
  /** Fields of one object. */
  maxKeys: number;
  /** Items of one array. */
  maxItems: number;
  /** Characters of one string (a key or a value). */
  maxStringLength: number;
};

/** The limits of every JSON body and JSON form field (README, Security). The upload routes allow longer strings (a screenshot as a data URL). */
export const JSON_LIMITS: JsonLimits = {
  maxChars: 1_000_000,
  maxDepth: 64,
  maxKeys: 1_000,
  maxItems: 10_000,
  maxStringLength: 100_000,
};

export type JsonProblem = {
  kind: 'size' | 'depth' | 'keys' | 'items' | 'string' | 'number' | 'reserved' | 'unstorable' | 'syntax';
  message: string;
  /** The dotted path of the field at fault (`responses.favorite_item`, `customQuestions.0`); null for the whole text. */
  field: string | null;
};

export type JsonResult = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

/** Field names refused anywhere in a JSON body (see the module comment). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text the database cannot store: U+0000 or an unpaired surrogate. */
export function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

export function unstorableMessage(field: string): string {
  return `${field} contains a character that cannot be saved (U+0000 or an unpaired surrogate). Please remove it and try again.`;
}

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * The deepest nesting of `{` and `[` outside strings, stopping as soon as it passes `limit` (then it
 * returns `limit + 1`). Iterative; a string is skipped with indexOf, so a large base64 data URL costs
 * little. Malformed text may be miscounted: JSON.parse refuses it afterwards anyway.
 */
export function jsonDepthOver(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Find the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return deepest;
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * `text` parsed as JSON within `limits`, or the first problem. `subject` names the text in messages:
 * "The request body", "The question list".
 */
export function parseJsonWithLimits(text: string, options: { subject?: string; limits?: Partial<JsonLimits> } = {}): JsonResult {
  const subject = options.subject ?? 'The request body';
  const limits = { ...JSON_LIMITS, ...options.limits };
  const fail = (kind: JsonProblem['kind'], message: string, field: string | null = null): JsonResult => ({ ok: false, problem: { kind, message, field } });

  if (text.length > limits.maxChars) return fail('size', `${subject} is too large: at most ${grouped(limits.maxChars)} characters.`);
  if (jsonDepthOver(text, limits.maxDepth) > limits.maxDepth) {
    return fail('depth', `${subject} is nested too deeply: at most ${limits.maxDepth} levels of objects and lists.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A SyntaxError; a RangeError is not expected within the depth limit, and is refused the same way.
    return fail('syntax', `${subject} is not valid JSON.`);
  }

  // One iterative walk: children are pushed in reverse so fields are checked in their written order.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: at, path } = stack.pop()!;
    const name = path || subject;
    if (typeof at === 'string') {
      if (at.length > limits.maxStringLength) return fail('string', `${path ? `${path} is` : `${subject} is`} too long: at most ${grouped(limits.maxStringLength)} characters.`, path || null);
      if (isUnstorable(at)) return fail('unstorable', unstorableMessage(path || 'body'), path || 'body');
    } else if (typeof at === 'number') {
      if (!Number.isFinite(at)) return fail('number', `${name} is a number too large to use.`, path || null);
    } else if (Array.isArray(at)) {
      if (at.length > limits.maxItems) return fail('items', `${path ? `The list ${path}` : subject} has too many items: at most ${grouped(limits.maxItems)}.`, path || null);
      for (let i = at.length - 1; i >= 0; i--) stack.push({ value: at[i], path: join(path, String(i)) });
    } else if (at !== null && typeof at === 'object') {
      const keys = Object.keys(at);
      if (keys.length > limits.maxKeys) return fail('keys', `${path ? `The object ${path}` : subject} has too many fields: at most ${grouped(limits.maxKeys)}.`, path || null);
      for (const key of keys) {
        const field = join(path, key);
        if (RESERVED_KEYS.has(key)) return fail('reserved', `${subject} uses the reserved field name ${key}${path ? ` (in ${path})` : ''}; please remove it.`, field);
        if (key.length > limits.maxStringLength) return fail('string', `${subject} has a field name that is too long: at most ${grouped(limits.maxStringLength)} characters.`, path || null);
        if (isUnstorable(key)) return fail('unstorable', unstorableMessage(field), field);
      }
      const record = at as Record<string, unknown>;
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: record[keys[i]!], path: join(path, keys[i]!) });
    }
  }
  return { ok: true, value };
}
