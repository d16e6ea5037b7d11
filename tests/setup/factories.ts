import { encryptToken } from '../../modules/pos/token-crypto.ts';
import { CookieJar, jsonRequest, run } from './http.ts';
import type { TestApp } from './test-root.ts';
import { action as signupAction } from '#app/routes/api+/auth.signup.ts';
import { action as publishAction } from '#app/routes/api+/survey.publish.ts';

let counter = 0;

/** Signs up a fresh owner through the JSON API and returns their cookie jar and id. */
export async function signedInOwner(app: Pick<TestApp, 'context'>, name = 'Crumb & Co Bakery') {
  counter += 1;
  const email = `owner-${Date.now()}-${counter}@example.com`;
  const res = await run(() =>
    signupAction({
      request: jsonRequest('/api/auth/signup', { email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: name, terms: true }),
      context: app.context(`10.9.${counter % 250}.${(counter * 7) % 250}`),
      params: {},
    }),
  );
  if (res.status !== 201) throw new Error(`signup failed: ${JSON.stringify(res.body)}`);
  const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
  return { jar, email, id: (res.body as { user: { id: string } }).user.id };
}

/** A valid survey body for the JSON API (cents). */
export const surveyBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Spring feedback',
  rewardMode: 'preset_2',
  redemptionWebsite: 'https://crumbandco.com',
  surveyFrequencyDays: 90,
  selectedReviewPlatforms: ['google'],
  reviewUrls: { google: 'https://g.page/r/crumb/review' },
  selectedSocialPlatforms: ['instagram'],
  socialHandles: { instagram: '@crumbandco' },
  customQuestions: [],
  ...overrides,
});

/** The builder form fields as a browser posts them. */
export const builderFields = (overrides: Record<string, string | string[]> = {}): Array<[string, string]> => {
  const base: Record<string, string | string[]> = {
    intent: 'save',
    surveyTemplateId: 'restaurant_cafe_bakery',
    title: 'Spring feedback',
    rewardMode: 'preset_2',
    surveyFrequencyDays: '90',
    redemptionWebsite: 'crumbandco.com',
    selectedReviewPlatforms: ['google'],
    'reviewUrls.google': 'https://g.page/r/crumb/review',
    selectedSocialPlatforms: ['instagram'],
    'socialHandles.instagram': '@crumbandco',
    ...overrides,
  };
  return Object.entries(base).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : [[k, v] as [string, string]]));
};

export async function createSurvey(app: TestApp, jar: CookieJar, overrides: Record<string, unknown> = {}) {
  const { action } = await import('#app/routes/api+/survey.builder-config.ts');
  const res = await run(() => action({ request: jsonRequest('/api/survey/builder-config', surveyBody(overrides), jar), context: app.context(), params: {} }));
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; businessId: string; shortCode: string };
}

/**
 * Marks a business's Square account as connected with a chosen location, straight in the database,
 * so its surveys are Available to customers. (The Square connection flow is issue 5's.)
 */
export async function connectSquareForTest(app: TestApp, businessId: string, accessToken = 'test-access-token') {
  const stored = encryptToken(accessToken, app.root.config.TOKEN_ENCRYPTION_KEY, businessId);
  await app.root.db.orm.em
    .getConnection()
    .execute(
      `update businesses set square_access_token = ?, square_merchant_id = 'TEST-MERCHANT', square_location_id = 'TEST-LOCATION', square_location_name = 'Main Street' where id = ?`,
      [stored, businessId],
    );
}

/**
 * Marks a business's Square account as connected but without a location: its surveys are Available
 * to customers, and rewards are Test cards (no location, no Square gift cards; ADR 018).
 */
export async function connectSquareWithoutLocation(app: TestApp, businessId: string) {
  const stored = encryptToken('test-access-token', app.root.config.TOKEN_ENCRYPTION_KEY, businessId);
  await app.root.db.orm.em.getConnection().execute(`update businesses set square_access_token = ?, square_merchant_id = 'TEST-MERCHANT' where id = ?`, [stored, businessId]);
}

/** Publishes the owner's survey through the spec's API (POST /api/survey/publish); the owner needs a trial or subscription. */
export async function publishForTest(app: TestApp, jar: CookieJar, surveyId: string) {
  const res = await run(() => publishAction({ request: jsonRequest('/api/survey/publish', { surveyId }, jar), context: app.context(), params: {} }));
  if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
}
