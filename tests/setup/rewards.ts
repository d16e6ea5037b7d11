import { expect } from 'vitest';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { connectSquareForTest, connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner } from './factories.ts';
import { jsonRequest, run } from './http.ts';
import type { TestApp } from './test-root.ts';
import { startTrialForTest } from './billing.ts';

/** Retry at once, a few times: fault tests finish in seconds instead of hours. */
export const FAST_RETRIES = {
  'reward-issue': { retryLimit: 8, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 60 },
  'reward-email': { retryLimit: 8, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 60 },
};

/** Parts 1 and 2 in full: 12 points, Silver (preset_2: $3.00). */
export const SILVER_ANSWERS = {
  overall_rating: 5,
  recommend: 'yes',
  visit_frequency: 'Weekly',
  service_rating: 4,
  favorite_item: 'The almond croissant, always warm',
  atmosphere_rating: 5,
  value_rating: 4,
  improvement_suggestions: 'More seating near the window would be lovely',
};

let ip = 0;

/**
 * An owner with a published survey customers can reach (trial started; with `square`, a Square
 * account with a location), and a way for customers to submit it through the real endpoint.
 */
export async function rewardingBusiness(app: TestApp, name: string, options: { square?: boolean; languages?: string[] } = {}) {
  const owner = await signedInOwner(app, name);
  // `languages`: the survey's (ADR 086); left out, English only, as a new survey.
  const surveyId = (await createSurvey(app, owner.jar, options.languages ? { languages: options.languages } : {})).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  if (options.square) await connectSquareForTest(app, owner.id);
  else await connectSquareWithoutLocation(app, owner.id);
  const businessId = owner.id;
  return {
    owner,
    businessId,
    surveyId,
    /** A customer's submission; returns the stored response id. */
    async submit(customerEmail: string, customerName: string | null = 'Ana', responses: Record<string, unknown> = SILVER_ANSWERS): Promise<string> {
      ip += 1;
      const res = await run(() =>
        submitAction({
          request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, { responses, customerEmail, customerName }),
          context: app.context(`10.88.${Math.floor(ip / 200) % 250}.${ip % 200}`),
          params: { businessId, surveyId },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { responseId: string }).responseId;
    },
  };
}

/** Raw SQL against the test database (its own forked EntityManager). */
export function query<T = Record<string, unknown>>(app: TestApp, sql: string, params: unknown[] = []): Promise<T[]> {
  return app.root.db.orm.em.fork().getConnection().execute(sql, params) as Promise<T[]>;
}

export async function issuanceOf(app: TestApp, responseId: string) {
  const [row] = await query<{
    id: string;
    gift_card_number: string;
    gift_card_id: string;
    is_square_gift_card: boolean;
    reward_value: number;
    reward_tier: string;
    emailed_at: Date | null;
    email_attempts: number;
  }>(app, `select * from gift_card_issuances where survey_response_id = ?`, [responseId]);
  return row ?? null;
}

/** Waits until every response has an issuance whose email was sent. */
export async function waitForEmailed(app: TestApp, responseIds: string[], timeout = 60_000) {
  await expect
    .poll(
      async () => {
        const [row] = await query<{ n: number }>(
          app,
          `select count(*)::int as n from gift_card_issuances where emailed_at is not null and survey_response_id in (${responseIds.map(() => '?').join(', ')})`,
          responseIds,
        );
        return row!.n;
      },
      { timeout, interval: 250 },
    )
    .toBe(responseIds.length);
}
