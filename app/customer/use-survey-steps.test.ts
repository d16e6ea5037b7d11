import { describe, expect, it } from 'vitest';
import { getTemplate, PART3_ID } from '../../modules/surveys/index.ts';
import { focusProblemField, hiddenAnswers } from './use-survey-steps.ts';

const template = getTemplate('restaurant_cafe_bakery')!;
const section = (index: number) => template.sections[index]!;

describe('answers carried as hidden fields (the page without JavaScript)', () => {
  const answers = { overall_rating: 5, customerEmail: 'a@b.co', review_google_reviewer_name: 'Ana', review_google_screenshot: 'v1' };

  it("keeps every answer not shown as a control on this section, composite keys included", () => {
    expect(hiddenAnswers(answers, section(0).questions, false)).toEqual([
      ['customerEmail', 'a@b.co'],
      ['review_google_reviewer_name', 'Ana'],
      ['review_google_screenshot', 'v1'],
    ]);
  });

  it("leaves part 3's block fields and the claim box's contact fields to their controls", () => {
    const part3 = template.sections.find((s) => s.id === PART3_ID)!;
    expect(hiddenAnswers(answers, part3.questions, true)).toEqual([['overall_rating', 5]]);
  });
});

describe('a refused field is scrolled to and focused (issue 27 item 8)', () => {
  const control = (checked = false) => {
    const calls: string[] = [];
    return { checked, calls, focus: (o?: { preventScroll?: boolean }) => calls.push(`focus:${o?.preventScroll}`), scrollIntoView: (o?: { block?: string }) => calls.push(`scroll:${o?.block}`) };
  };
  const page = (byId: Record<string, unknown>, byName: Record<string, unknown[]>) => ({
    getElementById: (id: string) => byId[id] ?? null,
    querySelectorAll: (selector: string) => byName[/^\[name="(.+)"\]$/.exec(selector)?.[1] ?? ''] ?? [],
  });

  it('the rating: the first of its buttons when none is chosen, centred and focused without a second jump', () => {
    const [one, two] = [control(), control()];
    expect(focusProblemField(page({}, { overall_rating: [one, two] }), 'overall_rating')).toBe(true);
    expect(one.calls).toEqual(['scroll:center', 'focus:true']);
    expect(two.calls).toEqual([]);
  });

  it('an input by its id, the checked radio of a group, and false for a field not on the page or a strange key', () => {
    const email = control();
    expect(focusProblemField(page({ customerEmail: email }, {}), 'customerEmail')).toBe(true);
    expect(email.calls).toEqual(['scroll:center', 'focus:true']);
    const [a, b] = [control(), control(true)];
    expect(focusProblemField(page({}, { recommend: [a, b] }), 'recommend')).toBe(true);
    expect(b.calls).toHaveLength(2);
    expect(focusProblemField(page({}, {}), 'nothing_here')).toBe(false);
    expect(focusProblemField(page({}, {}), 'x"] , body')).toBe(false);
  });
});
