import { describe, expect, it } from 'vitest';
import { goldUnreachableMessage, maxPoints, questionCounts, reachableTiers, scoreSurvey, surveyFairnessProblems, tierThresholds, type ScoringConfig } from '../scoring/index.ts';
import { builderFormSchema, surveyConfigApiSchema } from './schema.ts';
import { applyQuestionIntent, emptyDraft, parseQuestionIntent, type EditorState } from './question-editor.ts';
import { QUESTION_MESSAGES, validateQuestionList } from './question-validation.ts';
import { effectiveTemplate, newQuestionId, questionList, questionTexts, removedQuestions, templateQuestionList, type CustomQuestion } from './questions.ts';
import { restaurantCafeBakery as template, type Answers } from './template.ts';

const base = templateQuestionList(template);
const owner = (over: Partial<CustomQuestion> = {}): CustomQuestion => ({
  id: 'q_milk0001',
  section: 'part2',
  origin: 'owner',
  type: 'multiple_choice',
  text: 'Which milk do you take?',
  required: false,
  points: 2,
  options: ['Oat', 'Dairy', 'Soy'],
  ...over,
});
const remove = (id: string) => base.map((q) => (q.id === id ? { ...q, removed: true } : q));
const config: ScoringConfig = { selectedReviewPlatforms: ['google'], selectedSocialPlatforms: [], bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 };
const survey = (customQuestions: unknown[]) => ({ surveyTemplateId: template.id, customQuestions });
const score = (customQuestions: unknown[], answers: Answers) =>
  scoreSurvey({ template: effectiveTemplate(survey(customQuestions)), config, answers, verified: { review: {}, follow: {}, tag: {} } });

describe('the effective question list', () => {
  it('is the template for a survey without its own questions', () => {
    expect(effectiveTemplate(survey([]))).toBe(template);
    expect(questionList(survey([]))).toEqual(base);
  });

  it('adds the owner question in its place, leaves removed ones out, keeps the locked ones', () => {
    const list = [...remove('recommend').slice(0, 4), owner({ section: 'part1' }), ...base.slice(4)];
    const effective = effectiveTemplate(survey(list));
    expect(effective.sections[0]!.questions.map((q) => q.id)).toEqual(['overall_rating', 'customer_email', 'visit_frequency', 'q_milk0001']);
    expect(effective.sections[2]).toBe(template.sections[2]);
    expect(removedQuestions(survey(list)).map((q) => q.id)).toEqual(['recommend']);
    // A stored list that tries to drop the overall rating still has it (appended to its section).
    const without = effectiveTemplate(survey(base.filter((q) => q.id !== 'overall_rating').map((q) => ({ ...q }))));
    expect(without.sections[0]!.questions.map((q) => q.id)).toContain('overall_rating');
  });

  it('keeps the texts each question is asked with', () => {
    const list = base.map((q) => (q.id === 'recommend' ? { ...q, text: 'Would you bring a friend?' } : q));
    expect(questionTexts(effectiveTemplate(survey([...list, owner()])))).toMatchObject({ recommend: 'Would you bring a friend?', q_milk0001: 'Which milk do you take?' });
  });

  it('makes ids that never collide with template keys', () => {
    const id = newQuestionId(base);
    expect(id).toMatch(/^q_[a-z0-9]{8}$/);
  });
});

describe('scoring with the owner questions (table)', () => {
  const milk = owner();
  const scale7 = owner({ id: 'q_scale007', type: 'scale', text: 'Coffee strength', options: undefined, scale_max: 7, points: 3 });
  const note = owner({ id: 'q_note0001', type: 'short_text', text: 'Anything else?', options: undefined, min_chars: 10, points: 4 });
  const yes = owner({ id: 'q_yesno001', type: 'yes_no', text: 'Did you order online?', options: undefined, points: 1 });
  const line = owner({ id: 'q_line0001', type: 'text', text: 'Your barista', options: undefined, points: 5 });
  const list = [...base, milk, scale7, note, yes, line];
  it.each<[string, unknown[], Answers, number]>([
    ['a listed option earns the points', list, { q_milk0001: 'Oat' }, 2],
    ['an unlisted option earns nothing', list, { q_milk0001: 'Almond' }, 0],
    ['7 on a 1-7 scale', list, { q_scale007: 7 }, 3],
    ['8 on a 1-7 scale is out of range', list, { q_scale007: 8 }, 0],
    ['short text under its minimum', list, { q_note0001: 'too short' }, 0],
    ['short text at its minimum', list, { q_note0001: 'just right' }, 4],
    ['yes/no', list, { q_yesno001: 'no' }, 1],
    ['single-line text', list, { q_line0001: 'Sam' }, 5],
    ['a removed template question earns nothing', remove('recommend'), { recommend: 'yes' }, 0],
    ['an edited template question earns its new points', base.map((q) => (q.id === 'recommend' ? { ...q, points: 4 } : q)), { recommend: 'yes' }, 4],
    ['answers of a question the survey lacks earn nothing', base, { q_milk0001: 'Oat' }, 0],
  ])('%s', (_name, customQuestions, answers, expected) => {
    expect(score(customQuestions, answers).points).toBe(expected);
  });

  it('max points, question counts and the tiers follow the list', () => {
    const plain = effectiveTemplate(survey([]));
    const more = effectiveTemplate(survey(list));
    expect(maxPoints(more, config) - maxPoints(plain, config)).toBe(2 + 3 + 4 + 1 + 5);
    expect(questionCounts(more, config).total - questionCounts(plain, config).total).toBe(5);
    const fewer = effectiveTemplate(survey(remove('improvement_suggestions')));
    expect(maxPoints(fewer, config)).toBe(maxPoints(plain, config) - 3);
    expect(reachableTiers(tierThresholds(template), 16).map((t) => t.reachable)).toEqual([true, true, false]);
    expect(goldUnreachableMessage(tierThresholds(template), 16)).toMatch(/^Gold needs 18 points but this survey gives at most 16/);
    expect(goldUnreachableMessage(tierThresholds(template), 17)).toMatch(/^Gold needs 18 points/);
    expect(goldUnreachableMessage(tierThresholds(template), 18)).toBeNull();
  });
});

describe('validating a question list', () => {
  const problems = (list: unknown) => {
    const r = validateQuestionList(template, list);
    return r.ok ? [] : r.problems.map((p) => p.message);
  };
  it.each<[string, unknown, string]>([
    ['empty text', [...base, owner({ text: '  ' })], QUESTION_MESSAGES.emptyText],
    ['duplicate options', [...base, owner({ options: ['Oat', 'oat '] })], QUESTION_MESSAGES.duplicateOptions],
    ['one option', [...base, owner({ options: ['Oat'] })], QUESTION_MESSAGES.optionCount],
    ['nine options', [...base, owner({ options: 'abcdefghi'.split('') })], QUESTION_MESSAGES.optionCount],
    ['6 points', [...base, owner({ points: 6 })], QUESTION_MESSAGES.points],
    ['-1 points', [...base, owner({ points: -1 })], QUESTION_MESSAGES.points],
    ['1.5 points', [...base, owner({ points: 1.5 })], QUESTION_MESSAGES.points],
    ['a scale of 2', [...base, owner({ type: 'scale', options: undefined, scale_max: 2 })], QUESTION_MESSAGES.scale],
    ['a scale of 11', [...base, owner({ type: 'scale', options: undefined, scale_max: 11 })], QUESTION_MESSAGES.scale],
    ['an unknown type', [...base, owner({ type: 'image_upload' })], QUESTION_MESSAGES.unknownType('image_upload')],
    ['an email question of the owner', [...base, owner({ type: 'email' })], QUESTION_MESSAGES.unknownType('email')],
    ['an id of a template question', [...base, owner({ id: 'recommend' })], QUESTION_MESSAGES.duplicateId('recommend')],
    ['an id of a part-3 question', [...base, owner({ id: 'five_star_improvement' })], QUESTION_MESSAGES.idTaken('five_star_improvement')],
    ['a composite answer key', [...base, owner({ id: 'review_google_screenshot' })], QUESTION_MESSAGES.idTaken('review_google_screenshot')],
    ['a contact key', [...base, owner({ id: 'customerEmail' })], QUESTION_MESSAGES.idTaken('customerEmail')],
    ['a free-form id', [...base, owner({ id: 'milk' })], QUESTION_MESSAGES.badId],
    ['part 3', [...base, owner({ section: 'part3' })], QUESTION_MESSAGES.unknownSection],
    ['removing the overall rating', remove('overall_rating'), QUESTION_MESSAGES.locked],
    ['removing the email', remove('customer_email'), QUESTION_MESSAGES.locked],
    ['changing a template type', base.map((q) => (q.id === 'recommend' ? { ...q, type: 'text' } : q)), QUESTION_MESSAGES.typeChange],
    ['31 questions', [...base, ...Array.from({ length: 22 }, (_, i) => owner({ id: `q_many${String(i).padStart(4, '0')}` }))], QUESTION_MESSAGES.tooMany],
    ['not a list', { a: 1 }, QUESTION_MESSAGES.malformed],
  ])('%s is refused', (_name, list, message) => {
    expect(problems(list)).toContain(message);
  });

  it('accepts 30 questions, and stores the template unchanged as []', () => {
    expect(problems([...base, ...Array.from({ length: 21 }, (_, i) => owner({ id: `q_many${String(i).padStart(4, '0')}` }))])).toEqual([]);
    expect(validateQuestionList(template, base)).toEqual({ ok: true, list: [] });
    expect(validateQuestionList(template, [...base].reverse())).toMatchObject({ ok: true, list: expect.arrayContaining([expect.objectContaining({ id: 'recommend' })]) });
  });

  it('keeps HTML as text (escaped when shown)', () => {
    const r = validateQuestionList(template, [...base, owner({ text: '<img src=x onerror=alert(1)>' })]);
    expect(r.ok && r.list.at(-1)!.text).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('the builder and API schemas', () => {
  const form = {
    title: 'Visit',
    rewardMode: 'preset_2',
    redemptionWebsite: 'cafe.example',
    surveyFrequencyDays: '90',
    selectedReviewPlatforms: 'google',
    'reviewUrls.google': 'https://g.example/r',
  };
  const parse = (customQuestions: unknown) =>
    builderFormSchema.safeParse({ ...form, reviewUrls: { google: 'https://g.example/r' }, customQuestions: JSON.stringify(customQuestions) });
  it('stores the owner list', () => {
    const r = parse([...base, owner()]);
    expect(r.success && r.data.customQuestions?.at(-1)?.id).toBe('q_milk0001');
  });
  it('the save check refuses a survey whose Gold cannot be reached, saying why, on the questions', () => {
    const list = base.map((q) => (q.origin === 'template' && !['overall_rating', 'customer_email'].includes(q.id) ? { ...q, removed: true } : q));
    const r = parse(list);
    expect(r.success).toBe(true);
    const problems = surveyFairnessProblems({ ...r.data!, reviewPolicy: r.data!.reviewPolicy ?? 'ask_every', tierThresholds: null });
    expect(problems).toEqual([{ field: 'customQuestions', message: expect.stringMatching(/^Gold needs 18 points but this survey gives at most 15/) }]);
    // Gold within reach again once the owner lowers it to the survey's most points.
    expect(surveyFairnessProblems({ ...r.data!, reviewPolicy: 'ask_every', tierThresholds: { Bronze: 5, Silver: 8, Gold: 15 } }).map((p) => p.field)).not.toContain('customQuestions');
  });
  it('refuses an unreadable list', () => {
    const r = builderFormSchema.safeParse({ ...form, reviewUrls: { google: 'https://g.example/r' }, customQuestions: '{nope' });
    expect(r.success).toBe(false);
  });
  it('the API keeps stored questions when customQuestions is left out', () => {
    const r = surveyConfigApiSchema.safeParse({ title: 'x', rewardMode: 'preset_1', redemptionWebsite: 'cafe.example', selectedReviewPlatforms: ['google'], reviewUrls: { google: 'https://g.example' } });
    expect(r.success && 'customQuestions' in r.data).toBe(false);
  });
});

describe('the builder reducer (the same with and without JavaScript)', () => {
  const start = (): EditorState => ({ list: templateQuestionList(template), draft: emptyDraft(template), errors: [], notice: null });
  const ids = (s: EditorState, section: string) => s.list.filter((q) => q.section === section && !q.removed).map((q) => q.id);
  it('adds to the chosen section, with a fresh q_ id, and empties the editor', () => {
    const draft = { ...emptyDraft(template), section: 'part1', type: 'yes_no', text: 'Did you order online?', points: '1' };
    const next = applyQuestionIntent(template, { ...start(), draft }, { kind: 'apply' }, () => 0.5);
    expect(next.errors).toEqual([]);
    expect(ids(next, 'part1').at(-1)).toMatch(/^q_[a-z0-9]{8}$/);
    expect(next.draft.text).toBe('');
    expect(next.notice).toBe('Added: Did you order online?');
  });
  it('refuses a bad draft with every message and changes nothing', () => {
    const draft = { ...emptyDraft(template), type: 'multiple_choice', text: '', points: '7', options: 'Oat' };
    const next = applyQuestionIntent(template, { ...start(), draft }, { kind: 'apply' });
    expect(next.errors).toEqual(expect.arrayContaining([QUESTION_MESSAGES.emptyText, QUESTION_MESSAGES.points, QUESTION_MESSAGES.optionCount]));
    expect(next.list).toEqual(start().list);
    expect(next.draft).toEqual(draft);
  });
  it('moves within a section only, removes and restores, never the locked questions', () => {
    let s = applyQuestionIntent(template, start(), { kind: 'up', id: 'recommend' });
    expect(ids(s, 'part1')).toEqual(['overall_rating', 'recommend', 'customer_email', 'visit_frequency']);
    s = applyQuestionIntent(template, s, { kind: 'up', id: 'service_rating' });
    expect(ids(s, 'part2')[0]).toBe('service_rating');
    s = applyQuestionIntent(template, s, { kind: 'remove', id: 'favorite_item' });
    s = applyQuestionIntent(template, s, { kind: 'down', id: 'service_rating' });
    expect(ids(s, 'part2').slice(0, 2)).toEqual(['atmosphere_rating', 'service_rating']);
    s = applyQuestionIntent(template, s, { kind: 'restore', id: 'favorite_item' });
    expect(ids(s, 'part2')).toContain('favorite_item');
    const locked = applyQuestionIntent(template, s, { kind: 'remove', id: 'overall_rating' });
    expect(locked.errors).toEqual([QUESTION_MESSAGES.locked]);
    expect(locked.list).toEqual(s.list);
    expect(applyQuestionIntent(template, s, { kind: 'edit', id: 'nope' }).errors).toEqual(['That question is no longer in the survey.']);
  });
  it('edits a template question in place', () => {
    const loaded = applyQuestionIntent(template, start(), { kind: 'edit', id: 'recommend' });
    expect(loaded.draft).toMatchObject({ id: 'recommend', text: 'Would you recommend us to a friend?' });
    const saved = applyQuestionIntent(template, { ...loaded, draft: { ...loaded.draft, text: 'Would you bring a friend?', points: '3' } }, { kind: 'apply' });
    expect(saved.list.find((q) => q.id === 'recommend')).toMatchObject({ text: 'Would you bring a friend?', points: 3, origin: 'template' });
    expect(parseQuestionIntent('question:remove:recommend')).toEqual({ kind: 'remove', id: 'recommend' });
    expect(parseQuestionIntent('question:drop:recommend')).toBeNull();
    expect(parseQuestionIntent('save')).toBeNull();
  });
});
