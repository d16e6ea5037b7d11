import { describe, expect, it } from 'vitest';
import { getTemplate, PART3_ID } from '../../modules/surveys/index.ts';
import { hiddenAnswers } from './use-survey-steps.ts';

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
