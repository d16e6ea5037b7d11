import { describe, expect, it } from 'vitest';
import { builderFormSchema, readQuestionListText, UNREADABLE_QUESTIONS } from '../surveys/forms.ts';
import { jsonDepthOver, JSON_LIMITS, parseJsonWithLimits } from './json.ts';

const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const problemOf = (text: string, limits = {}) => {
  const result = parseJsonWithLimits(text, { limits });
  return result.ok ? null : result.problem;
};

describe('parseJsonWithLimits (issue 25)', () => {
  it('parses what is within the limits', () => {
    expect(parseJsonWithLimits('{"a":[1,"x",{"b":null}],"c":true}')).toEqual({ ok: true, value: { a: [1, 'x', { b: null }], c: true } });
    expect(parseJsonWithLimits(deepObject(64)).ok).toBe(true);
  });

  it.each([65, 1_000, 20_000, 1_000_000])('refuses %i levels before parsing, with the message the issue asks for', (depth) => {
    for (const text of [deepObject(depth), deepArray(depth)]) {
      expect(problemOf(text, { maxChars: 10_000_000 })).toEqual({ kind: 'depth', field: null, message: 'The request body is nested too deeply: at most 64 levels of objects and lists.' });
    }
  });

  it('counts brackets outside strings only, escaped quotes included', () => {
    expect(jsonDepthOver('{"a":"[[[[{{{{","b":"\\"[[[[","c":"\\\\"}', 10)).toBe(1);
    expect(jsonDepthOver(`{"s":"${'['.repeat(100)}"}`, 64)).toBe(1);
    expect(parseJsonWithLimits(`{"s":"${'{'.repeat(100_000)}"}`).ok).toBe(true);
    expect(jsonDepthOver('[[["x\\\\"]]]', 64)).toBe(3);
  });

  it('refuses an object with too many fields, a list with too many items, a string too long', () => {
    const keys = `{${Array.from({ length: 100_000 }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
    expect(problemOf(keys)).toEqual({ kind: 'keys', field: null, message: 'The request body has too many fields: at most 1,000.' });
    expect(problemOf(`{"responses":${keys}}`)).toMatchObject({ kind: 'keys', field: 'responses', message: 'The object responses has too many fields: at most 1,000.' });
    expect(problemOf(`{"list":[${'0,'.repeat(10_000)}0]}`)).toMatchObject({ kind: 'items', field: 'list', message: 'The list list has too many items: at most 10,000.' });
    expect(problemOf(JSON.stringify({ email: 'x'.repeat(999_000) }))).toMatchObject({ kind: 'string', field: 'email', message: 'email is too long: at most 100,000 characters.' });
    expect(problemOf(JSON.stringify({ shot: 'x'.repeat(999_000) }), { maxStringLength: 2_000_000 })).toBeNull();
    expect(problemOf(`{"a":"${'x'.repeat(JSON_LIMITS.maxChars)}"}`)).toMatchObject({ kind: 'size', message: 'The request body is too large: at most 1,000,000 characters.' });
  });

  it('refuses 1e309 (Infinity once parsed) naming the field', () => {
    expect(problemOf('{"responses":{"overall_rating":1e309}}')).toEqual({ kind: 'number', field: 'responses.overall_rating', message: 'responses.overall_rating is a number too large to use.' });
    expect(problemOf('{"x":-1e309}')).toMatchObject({ kind: 'number', field: 'x' });
    expect(problemOf('{"x":1e308}')).toBeNull();
  });

  it('refuses __proto__, constructor and prototype as field names, at any depth, and pollutes nothing', () => {
    expect(problemOf('{"__proto__":{"polluted":"yes"}}')).toMatchObject({ kind: 'reserved', field: '__proto__' });
    expect(problemOf('{"a":[{"constructor":{"prototype":{"polluted":"yes"}}}]}')).toMatchObject({ kind: 'reserved', field: 'a.0.constructor', message: 'The request body uses the reserved field name constructor (in a.0); please remove it.' });
    expect(problemOf('{"prototype":1}')).toMatchObject({ kind: 'reserved' });
    expect(problemOf('{"name":"__proto__"}')).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the field whose text the database cannot store, key or value, in written order', () => {
    expect(problemOf('{"ok":"fine","responses":{"favorite_item":"a\\u0000b"},"z":"\\ud800"}')).toMatchObject({ kind: 'unstorable', field: 'responses.favorite_item' });
    expect(problemOf('{"a\\ud800":1}')).toMatchObject({ kind: 'unstorable', field: 'a\ud800' });
    expect(problemOf('{"list":["ok","\\udfff"]}')).toMatchObject({ kind: 'unstorable', field: 'list.1' });
  });

  it('answers malformed text as a syntax problem', () => {
    expect(problemOf('{"email": ')).toMatchObject({ kind: 'syntax', message: 'The request body is not valid JSON.' });
    expect(problemOf('{"a":"[}')).toMatchObject({ kind: 'syntax' });
  });
});

describe("the builder's question list field", () => {
  it('reads a list, and says why it cannot read one', () => {
    expect(readQuestionListText('[{"id":"q1"}]')).toEqual({ ok: true, list: [{ id: 'q1' }] });
    expect(readQuestionListText('{')).toEqual({ ok: false, message: UNREADABLE_QUESTIONS });
    expect(readQuestionListText('{}')).toEqual({ ok: false, message: UNREADABLE_QUESTIONS });
    expect(readQuestionListText(deepArray(20_000))).toEqual({ ok: false, message: 'The question list is nested too deeply: at most 64 levels of objects and lists.' });
  });

  it('puts the limit message on the customQuestions field of the form', () => {
    const result = builderFormSchema.safeParse({ title: 'T', rewardMode: 'preset_1', customQuestions: deepArray(1_000) });
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((i) => i.path[0] === 'customQuestions');
    expect(issue?.message).toBe('The question list is nested too deeply: at most 64 levels of objects and lists.');
  });
});
