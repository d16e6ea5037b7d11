/**
 * Issue 14 (policy part, ADRs 040-041): the review policy per survey, tier fairness at save, and the
 * incentive disclosure, through the public entry points: the builder's form action (the no-JavaScript
 * path), the JSON API, the customer's page and submit endpoint, and the reward email over real SMTP.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as createApi } from '#app/routes/api+/survey.builder-config.ts';
import { action as updateApi, loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { loader as publicApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { action as verifyScreenshot } from '#app/routes/api+/verify-screenshot.ts';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { action as builderAction, loader as builderLoader } from '#app/routes/_surveys+/survey-builder.tsx';
import type { SurveyPageData } from '#app/customer/state.ts';
import { Migration20261124121000ReviewPolicy } from '../../migrations/Migration20261124121000ReviewPolicy.ts';
import { toFormValues, type StoredSurveyLike } from '../../modules/surveys/forms.ts';
import { getTemplate, INCENTIVE_DISCLOSURE, POLICY_DISCLOSURE, templateQuestionList } from '../../modules/surveys/index.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { builderFields, connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { FAST_RETRIES, issuanceOf, query, rewardingBusiness, SILVER_ANSWERS, waitForEmailed } from '../setup/rewards.ts';
import { startRewardWorkers } from '../../server/composition.ts';
import { startRefusingSmtp } from '../setup/smtp.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let ipCounter = 0;
const ctx = () => {
  ipCounter += 1;
  return app.context(`10.140.${Math.floor(ipCounter / 200) % 250}.${ipCounter % 200}`);
};
const LINK = 'https://maps.app.goo.gl/x7Qm2aVbC9dEf';
const IMPROVEMENT = 'The music was far too loud to talk over, please turn it down';

let seed = 0;
async function screenshot(): Promise<string> {
  seed += 1;
  const png = await sharp({ create: { width: 80 + seed, height: 60, channels: 3, background: { r: (seed * 41) % 256, g: (seed * 83) % 256, b: (seed * 29) % 256 } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

type Shop = { businessId: string; surveyId: string; jar: CookieJar };

/** An owner with a published survey customers can reach (trial, Square without a location: Test cards). */
async function openShop(name: string, overrides: Record<string, unknown> = {}): Promise<Shop> {
  const owner = await signedInOwner(app, name);
  const { id } = await createSurvey(app, owner.jar, overrides);
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, id);
  await connectSquareWithoutLocation(app, owner.id);
  return { businessId: owner.id, surveyId: id, jar: owner.jar };
}

/** A Google review screenshot verified by the (fake) verifier; returns the answers that cite it. */
async function verifiedReview(shop: Shop): Promise<Record<string, string>> {
  const shot = await screenshot();
  const res = await run(() =>
    verifyScreenshot({
      request: jsonRequest('/api/verify-screenshot', { businessId: shop.businessId, surveyId: shop.surveyId, platform: 'google', reviewerName: 'Ana Pereira', reviewLink: LINK, screenshot: shot }),
      context: ctx(),
      params: {},
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = res.body as { isValid: boolean; verificationId: string };
  expect(body.isValid).toBe(true);
  return { review_google_screenshot: body.verificationId, review_google_reviewer_name: 'Ana Pereira', review_google_review_link: LINK };
}

async function submit(shop: Shop, responses: Record<string, unknown>, email: string) {
  const res = await run(() =>
    submitApi({
      request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses, customerEmail: email, customerName: 'Ana' }),
      context: ctx(),
      params: { businessId: shop.businessId, surveyId: shop.surveyId },
    }),
  );
  return res as { status: number; body: { totalPoints?: number; rewardTier?: string | null; rewardValue?: number; message?: string } };
}

const storedPolicy = async (id: string) => (await query<{ review_policy: string }>(app, 'select review_policy from survey_configs where id = ?', [id]))[0]?.review_policy;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('the review policy is chosen per survey, the server decides', () => {
  it('a new survey is "Ask every customer" unless the owner picks rating-routed (builder form without JavaScript, and the JSON API)', async () => {
    const { jar } = await signedInOwner(app, 'Policy Cafe');
    const created = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields(), jar), context: ctx(), params: {} }));
    expect(created.status).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(created.headers.get('Location')!)![1]!;
    expect(await storedPolicy(id)).toBe('ask_every');

    const routed = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ reviewPolicy: 'rating_routed' }), jar), context: ctx(), params: {} }));
    const routedId = /surveyId=([\w-]+)/.exec(routed.headers.get('Location')!)![1]!;
    expect(await storedPolicy(routedId)).toBe('rating_routed');
    // The builder shows the stored choice when editing.
    const edit = await run(() => builderLoader({ request: getRequest(`/survey-builder?surveyId=${routedId}`, jar), context: ctx(), params: {} }));
    expect(edit.body).toMatchObject({ survey: { id: routedId, reviewPolicy: 'rating_routed' } });

    const api = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody(), jar), context: ctx(), params: {} }));
    expect(api.body).toMatchObject({ reviewPolicy: 'ask_every' });
    // A PUT that leaves the field out keeps the survey's own; one that sends it changes it.
    const apiId = (api.body as { id: string }).id;
    const put = (body: Record<string, unknown>) => run(() => updateApi({ request: jsonRequest(`/api/survey/config/${apiId}`, surveyBody(body), jar, 'PUT'), context: ctx(), params: { id: apiId } }));
    expect((await put({ reviewPolicy: 'rating_routed' })).body).toMatchObject({ reviewPolicy: 'rating_routed' });
    expect((await put({ title: 'Renamed' })).body).toMatchObject({ title: 'Renamed', reviewPolicy: 'rating_routed' });
    // Anything else is refused with a clear message.
    const bad = await put({ reviewPolicy: 'happy_only' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Choose \\"Ask every customer\\" or \\"Rating-routed\\"');
    const badForm = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ reviewPolicy: 'happy_only' }), jar), context: ctx(), params: {} }));
    expect(badForm.status).toBe(400);
  });

  it("an owner cannot see or change another owner's policy", async () => {
    const alice = await signedInOwner(app, 'Alice Cafe');
    const mallory = await signedInOwner(app, 'Mallory Cafe');
    const { id } = await createSurvey(app, alice.jar, { reviewPolicy: 'rating_routed' });
    const viaForm = await run(() => builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields({ reviewPolicy: 'ask_every' }), mallory.jar), context: ctx(), params: {} }));
    expect(viaForm.status).toBe(404);
    const viaApi = await run(() => updateApi({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ reviewPolicy: 'ask_every' }), mallory.jar, 'PUT'), context: ctx(), params: { id } }));
    expect(viaApi.status).toBe(404);
    const read = await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, mallory.jar), context: ctx(), params: { id } }));
    expect(read.status).toBe(404);
    expect(await storedPolicy(id)).toBe('rating_routed');
  });
});

describe('the policy decides what part 3 offers and what it earns', () => {
  let every: Shop;
  let routed: Shop;
  beforeAll(async () => {
    every = await openShop('Every Cafe', { reviewPolicy: 'ask_every' });
    routed = await openShop('Routed Cafe', { reviewPolicy: 'rating_routed' });
  });

  it('the public survey carries the policy the server stored, whatever the browser says', async () => {
    for (const [shop, policy] of [[every, 'ask_every'], [routed, 'rating_routed']] as const) {
      const json = await run(() => publicApi({ request: getRequest(`/api/survey/public/${shop.businessId}/${shop.surveyId}?reviewPolicy=ask_every`), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
      expect(json.body).toMatchObject({ config: { reviewPolicy: policy }, view: { reviewPolicy: policy } });
      const page = await run(() => publicPage.loader({ request: getRequest(`/survey/public/${shop.businessId}/${shop.surveyId}`), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
      expect((page.body as SurveyPageData).view).toMatchObject({ reviewPolicy: policy });
    }
  });

  it('"Ask every customer": a 2-star and a 5-star customer are offered the review and earn the same points for the same answers', async () => {
    const low = await submit(every, { ...SILVER_ANSWERS, overall_rating: 2, five_star_improvement: IMPROVEMENT, ...(await verifiedReview(every)) }, 'low-every@example.com');
    const high = await submit(every, { ...SILVER_ANSWERS, overall_rating: 5, five_star_improvement: IMPROVEMENT, ...(await verifiedReview(every)) }, 'high-every@example.com');
    // 12 (parts 1-2) + 5 (improvement) + 8 (verified Google review) = 25, Gold, at both ratings.
    expect([low.status, low.body.totalPoints, low.body.rewardTier]).toEqual([201, 25, 'Gold']);
    expect([high.status, high.body.totalPoints, high.body.rewardTier]).toEqual([201, 25, 'Gold']);
    // Without sharing, answering everything is Silver at any rating (Gold needs sharing).
    const plainLow = await submit(every, { ...SILVER_ANSWERS, overall_rating: 1, five_star_improvement: IMPROVEMENT }, 'plain-low-every@example.com');
    const plainHigh = await submit(every, { ...SILVER_ANSWERS, overall_rating: 5, five_star_improvement: IMPROVEMENT }, 'plain-high-every@example.com');
    expect([plainLow.body.totalPoints, plainLow.body.rewardTier]).toEqual([17, 'Silver']);
    expect([plainHigh.body.totalPoints, plainHigh.body.rewardTier]).toEqual([17, 'Silver']);
  });

  it("rating-routed (the spec's flow): the review counts only for 4+, the improvement text only for 1-3", async () => {
    const low = await submit(routed, { ...SILVER_ANSWERS, overall_rating: 2, five_star_improvement: IMPROVEMENT, ...(await verifiedReview(routed)) }, 'low-routed@example.com');
    const high = await submit(routed, { ...SILVER_ANSWERS, overall_rating: 5, ...(await verifiedReview(routed)) }, 'high-routed@example.com');
    // 2 stars: the review is not offered (earns nothing): 12 + 5 = 17, Silver. 5 stars: 12 + 8 = 20, Gold.
    expect([low.status, low.body.totalPoints, low.body.rewardTier]).toEqual([201, 17, 'Silver']);
    expect([high.status, high.body.totalPoints, high.body.rewardTier]).toEqual([201, 20, 'Gold']);
  });

  it('the no-JavaScript page scores by the stored policy too', async () => {
    const fields = (shop: Shop): Array<[string, string]> => [
      ['_intent', 'submit'],
      ['_section', '2'],
      ...Object.entries({ ...SILVER_ANSWERS, overall_rating: 3, five_star_improvement: IMPROVEMENT }).map(([k, v]) => [k, String(v)] as [string, string]),
      ['customerEmail', `form-${shop.surveyId.slice(0, 8)}@example.com`],
    ];
    const results: Array<[number, unknown]> = [];
    for (const shop of [every, routed]) {
      const res = await run(() => publicPage.action({ request: formRequest(`/survey/public/${shop.businessId}/${shop.surveyId}`, fields(shop)), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
      const step = (res.body as SurveyPageData).step;
      results.push([res.status, step.done?.points]);
    }
    expect(results).toEqual([
      [200, 17],
      [200, 17],
    ]);
  });
});

describe('tier fairness is checked when a survey is saved', () => {
  let jar: CookieJar;
  beforeAll(async () => {
    jar = (await signedInOwner(app, 'Fair Cafe')).jar;
  });
  const create = (body: Record<string, unknown>) => run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody(body), jar), context: ctx(), params: {} }));
  const count = async () => Number((await query<{ n: number }>(app, 'select count(*)::int as n from survey_configs s join businesses b on b.id = s.business_id where b.display_name = ?', ['Fair Cafe']))[0]!.n);

  it('refuses Gold below Silver (JSON API and builder form)', async () => {
    const before = await count();
    const api = await create({ rewardMode: 'custom', bronzeRewardValue: 100, silverRewardValue: 500, goldRewardValue: 300 });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ fieldErrors: { goldRewardValue: ['Gold must be at least the Silver reward'] } });
    const form = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ rewardMode: 'custom', customBronze: '1', customSilver: '5', customGold: '3' }), jar), context: ctx(), params: {} }));
    expect(form.status).toBe(400);
    expect(JSON.stringify(form.body)).toContain('Gold must be at least the Silver reward');
    expect(await count()).toBe(before);
  });

  it('refuses tier points that let Gold be earned without sharing, or that fall', async () => {
    const before = await count();
    const free = await create({ tierThresholds: { Gold: 17 } });
    expect(free.status).toBe(400);
    expect((free.body as { message: string }).message).toBe(
      'Gold must need sharing: every customer can reach 17 points without a review, follow or post, and Gold starts at 17. Raise Gold above 17 points.',
    );
    const falling = await create({ tierThresholds: { Silver: 30, Gold: 20 } });
    expect(falling.body).toMatchObject({ fieldErrors: { tierThresholds: ['Tier points must rise: Bronze below Silver, Silver below Gold'] } });
    const unknownTier = await create({ tierThresholds: { Platinum: 40 } });
    expect(JSON.stringify(unknownTier.body)).toContain('tierThresholds takes Bronze, Silver and Gold only');
    expect(await count()).toBe(before);
    const fair = await create({ tierThresholds: { Gold: 25 } });
    expect(fair.status).toBe(201);
    expect(fair.body).toMatchObject({ tierThresholds: { Gold: 25 } });
  });

  it('the builder form sets tier points without JavaScript: an added question that lets Gold go unshared is refused until Gold is raised', async () => {
    const before = await count();
    // A 2-point question everyone can answer: 20 points without sharing, Gold still at 18.
    const milk = { id: 'q_milk0001', section: 'part2', origin: 'owner', type: 'yes_no', text: 'Would you like oat milk?', required: false, points: 2 };
    const questions = JSON.stringify([...templateQuestionList(getTemplate('restaurant_cafe_bakery')!), milk]);
    const post = (extra: Record<string, string>) => run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ customQuestions: questions, ...extra }), jar), context: ctx(), params: {} }));
    const refused = await post({ tierBronze: '5', tierSilver: '8', tierGold: '18' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Gold must need sharing: every customer can reach 19 points without a review, follow or post, and Gold starts at 18. Raise Gold above 19 points.');
    const garbled = await post({ tierBronze: '5', tierSilver: 'eight', tierGold: '18' });
    expect(garbled.status).toBe(400);
    expect(JSON.stringify(garbled.body)).toContain('Tier points must be whole numbers from 0 to 1000');
    expect(await count()).toBe(before);

    const saved = await post({ tierBronze: '5', tierSilver: '8', tierGold: '22' });
    expect(saved.status).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(saved.headers.get('Location')!)![1]!;
    const read = await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }));
    expect(read.body).toMatchObject({ tierThresholds: { Bronze: 5, Silver: 8, Gold: 22 } });
    // Editing fills the card with the survey's own points; the template's points store nothing of their own.
    const edit = await run(() => builderLoader({ request: getRequest(`/survey-builder?surveyId=${id}`, jar), context: ctx(), params: {} }));
    expect(toFormValues((edit.body as { survey: StoredSurveyLike }).survey, 'preset_2')).toMatchObject({ tierBronze: '5', tierSilver: '8', tierGold: '22' });
    const plain = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ tierBronze: '5', tierSilver: '8', tierGold: '18' }), jar), context: ctx(), params: {} }));
    const plainId = /surveyId=([\w-]+)/.exec(plain.headers.get('Location')!)![1]!;
    const plainRead = await run(() => getConfig({ request: getRequest(`/api/survey/config/${plainId}`, jar), context: ctx(), params: { id: plainId } }));
    expect(plainRead.body).toMatchObject({ tierThresholds: null });
  });

  it('refuses rating-routed when low raters could not reach the tier high raters can, with the reason beside the choice', async () => {
    const noSocial = { selectedSocialPlatforms: [], socialHandles: {} };
    const api = await create({ ...noSocial, reviewPolicy: 'rating_routed' });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ fieldErrors: { reviewPolicy: [expect.stringContaining('customers who rate 3 stars or less can reach at most Silver (17 points)')] } });
    expect((await create({ ...noSocial, reviewPolicy: 'ask_every' })).status).toBe(201);

    const form = await run(() =>
      builderAction({ request: formRequest('/survey-builder', builderFields({ selectedSocialPlatforms: [], 'socialHandles.instagram': '', reviewPolicy: 'rating_routed' }), jar), context: ctx(), params: {} }),
    );
    expect(form.status).toBe(400);
    const result = (form.body as { result: { error: Record<string, string[]> } }).result;
    expect(result.error.reviewPolicy?.[0]).toContain('choose "Ask every customer"');

    // A PUT without the field is checked against the stored policy.
    const { id } = await createSurvey(app, jar, { reviewPolicy: 'rating_routed' });
    const put = await run(() => updateApi({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody(noSocial), jar, 'PUT'), context: ctx(), params: { id } }));
    expect(put.status).toBe(400);
    expect(await query(app, 'select selected_social_platforms from survey_configs where id = ?', [id])).toEqual([{ selected_social_platforms: ['instagram'] }]);
  });
});

describe('disclosure', () => {
  let mailApp: TestApp;
  let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
  beforeAll(async () => {
    smtp = await startRefusingSmtp();
    mailApp = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}?starttls=false` }, { jobs: true, jobPolicies: FAST_RETRIES });
    await startRewardWorkers(mailApp.root, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await mailApp?.close();
    await smtp?.close();
  });

  it('the reward email says what was rewarded and that any honest opinion counts (real SMTP)', async () => {
    const shop = await rewardingBusiness(mailApp, 'Mail Cafe');
    const responseId = await shop.submit('mail@example.com', 'Ana');
    await waitForEmailed(mailApp, [responseId]);
    const issuance = (await issuanceOf(mailApp, responseId))!;
    const mail = smtp.received.find((m) => m.messageId === `<reward-${issuance.id}@localhost>`)!;
    expect(mail.text).toContain(INCENTIVE_DISCLOSURE);
    expect(mail.text).toContain(POLICY_DISCLOSURE.ask_every);
    expect(String(mail.html)).toContain('Any honest opinion counts');
  }, 90_000);
});

describe('the migration', () => {
  it('keeps existing surveys rating-routed and makes new ones "Ask every customer"', async () => {
    const owner = await signedInOwner(app, 'Old Cafe');
    const { id: old } = await createSurvey(app, owner.jar, { reviewPolicy: 'ask_every' });
    // Back to the schema before the migration, with a survey in it, then the migration runs.
    const conn = app.root.db.orm.em.fork().getConnection();
    await conn.execute('alter table survey_configs drop column review_policy');
    const migration = new Migration20261124121000ReviewPolicy(app.root.db.orm.em.getDriver(), app.root.db.orm.config);
    await migration.up();
    for (const sql of migration.getQueries()) await conn.execute(String(sql));
    expect(await storedPolicy(old)).toBe('rating_routed');
    const { id: fresh } = await createSurvey(app, owner.jar);
    expect(await storedPolicy(fresh)).toBe('ask_every');
    await conn.execute(`insert into survey_configs (business_id, bronze_reward_value, silver_reward_value, gold_reward_value) values (?, 100, 300, 800)`, [owner.id]);
    expect(await query(app, 'select review_policy from survey_configs where business_id = ? order by created_at desc limit 1', [owner.id])).toEqual([{ review_policy: 'ask_every' }]);
  });
});
