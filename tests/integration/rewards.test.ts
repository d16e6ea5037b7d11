import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as giftCardIssuancesLoader } from '#app/routes/api+/gift-card-issuances.ts';
import { loader as issuancesLoader } from '#app/routes/api+/rewards.issuances.ts';
import { testCardFor } from '../../adapters/giftcards/TestGiftCards.ts';
import { issueReward } from '../../modules/rewards/issue.ts';
import { listFailures, retryFailed } from '../../modules/rewards/queries.ts';
import { GiftCardError, type GiftCards } from '../../modules/rewards/port.ts';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { createRequestContext, rewardDeps, startRewardWorkers } from '../../server/composition.ts';
import { signedInOwner } from '../setup/factories.ts';
import { getRequest, jsonRequest, run } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { startRefusingSmtp } from '../setup/smtp.ts';
import { FAST_RETRIES, issuanceOf, query, rewardingBusiness, SILVER_ANSWERS, waitForEmailed } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

describe('rewards with Test cards (no Square), end to end through the queue', () => {
  let app: TestApp;
  let shop: Awaited<ReturnType<typeof rewardingBusiness>>;

  beforeAll(async () => {
    app = await createTestApp({}, { jobs: true, jobPolicies: FAST_RETRIES });
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
    // The survey offers Spanish too (ADR 086), for the reward email in the customer's language.
    shop = await rewardingBusiness(app, 'Crumb & Co <Bakery>', { languages: ['en', 'es'] });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the request id of the submission rides into the reward-issue job and on into the reward-email job (issue 26)', async () => {
    const context = createRequestContext(app.root, { cspNonce: 'n', clientIp: '10.77.0.1', requestId: 'req-carried-0001' });
    const res = await run(() =>
      submitAction({
        request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: SILVER_ANSWERS, customerEmail: 'carried@example.com', customerName: 'Cara' }),
        context,
        params: { businessId: shop.businessId, surveyId: shop.surveyId },
      }),
    );
    expect(res.status).toBe(201);
    const responseId = (res.body as { responseId: string }).responseId;
    await waitForEmailed(app, [responseId]);
    const issuance = (await issuanceOf(app, responseId))!;
    const jobs = await query<{ name: string; data: Record<string, unknown> }>(
      app,
      `select name, data from pgboss.job where (name = 'reward-issue' and data->>'responseId' = ?) or (name = 'reward-email' and data->>'issuanceId' = ?) order by name`,
      [responseId, issuance.id],
    );
    expect(jobs).toEqual([
      { name: 'reward-email', data: { issuanceId: issuance.id, requestId: 'req-carried-0001' } },
      { name: 'reward-issue', data: { responseId, requestId: 'req-carried-0001' } },
    ]);
  });

  it('submission -> reward-issue -> issuance row -> reward-email -> the outbox has the card number', async () => {
    const responseId = await shop.submit('ana@example.com', 'Ana');
    await waitForEmailed(app, [responseId]);
    const issuance = (await issuanceOf(app, responseId))!;
    const expected = testCardFor(responseId);
    expect(issuance).toMatchObject({ gift_card_number: expected.gan, gift_card_id: expected.giftCardId, is_square_gift_card: false, reward_value: 300, reward_tier: 'Silver', email_attempts: 1 });
    const [response] = await query(app, `select gift_card_number, gift_card_id, is_square_gift_card from survey_responses where id = ?`, [responseId]);
    expect(response).toEqual({ gift_card_number: expected.gan, gift_card_id: expected.giftCardId, is_square_gift_card: false });

    const mails = (await readOutbox(app.root)).filter((m) => m.to === 'ana@example.com');
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('[TEST] Your $3.00 test gift card from Crumb & Co <Bakery>');
    expect(mail.text).toContain(`Gift card number: ${expected.gan}`);
    expect(mail.text).toContain('Amount: $3.00');
    expect(mail.text).toContain('Tier: Silver');
    expect(mail.text).toContain('Redeem it at Crumb & Co <Bakery>: https://crumbandco.com/');
    expect(mail.text).toContain('TEST gift card');
    expect(mail.html).toContain('Crumb &amp; Co &lt;Bakery&gt;');
    expect(mail.html.replace(/<\/?span[^>]*>/g, '')).toContain(expected.gan.replace(/(.{4})(?=.)/g, '$1 '));
    expect(mail.html).toContain('name="viewport"');
  });

  it("the reward email is in the customer's language: the locale the submission stored (issue 30, ADR 084)", async () => {
    const res = await run(() =>
      submitAction({
        request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: SILVER_ANSWERS, customerEmail: 'lucia@example.com', customerName: 'Lucía', locale: 'es' }),
        context: createRequestContext(app.root, { cspNonce: 'n', clientIp: '10.77.0.2' }),
        params: { businessId: shop.businessId, surveyId: shop.surveyId },
      }),
    );
    expect(res.status).toBe(201);
    const responseId = (res.body as { responseId: string }).responseId;
    await waitForEmailed(app, [responseId]);
    const [mail] = (await readOutbox(app.root)).filter((m) => m.to === 'lucia@example.com');
    expect(mail!.subject).toBe('[PRUEBA] Tu tarjeta regalo de prueba de 3,00\u00a0$ de Crumb & Co <Bakery>');
    expect(mail!.text).toContain('Hola, Lucía:');
    expect(mail!.text).toContain('Nivel: Plata');
    expect(mail!.html).toContain('<html lang="es">');
  });

  it('running reward-issue again, or both emails at once, changes nothing: one card, one email', async () => {
    const responseId = await shop.submit('twice@example.com', null);
    await waitForEmailed(app, [responseId]);
    const deps = rewardDeps(app.root);
    const again = await Promise.all([issueReward(deps, responseId), issueReward(deps, responseId)]);
    expect(again.map((o) => o.status)).toEqual(['already-issued', 'already-issued']);
    const [count] = await query<{ n: number }>(app, `select count(*)::int as n from gift_card_issuances where survey_response_id = ?`, [responseId]);
    expect(count!.n).toBe(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await readOutbox(app.root)).filter((m) => m.to === 'twice@example.com')).toHaveLength(1);
  });

  it('a response without a tier or without an email earns nothing', async () => {
    const noTier = await shop.submit('low@example.com', 'Low', { overall_rating: 2 });
    expect(await issueReward(rewardDeps(app.root), noTier)).toEqual({ status: 'not-eligible', reason: 'no reward tier was earned' });
    expect(await issueReward(rewardDeps(app.root), '00000000-0000-4000-8000-000000000000')).toEqual({ status: 'not-found' });
    expect(await issuanceOf(app, noTier)).toBeNull();
  });

  it('GET /api/rewards/issuances: the owner sees their issuances in the spec shape; another owner sees none; signed out is 401', async () => {
    const responseId = await shop.submit('listed@example.com', 'Listed');
    await waitForEmailed(app, [responseId]);
    const res = await run(() => issuancesLoader({ request: getRequest('/api/rewards/issuances', shop.owner.jar), context: app.context(), params: {} }));
    expect(res.status).toBe(200);
    const body = res.body as { issuances: Array<Record<string, unknown>>; failed: unknown[] };
    const item = body.issuances.find((i) => i.customerEmail === 'listed@example.com')!;
    expect(item).toMatchObject({
      id: expect.any(String),
      issuedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      customerName: 'Listed',
      customerEmail: 'listed@example.com',
      giftCardNumber: testCardFor(responseId).gan,
      rewardValue: 300,
      rewardTier: 'Silver',
      isSquareGiftCard: false,
      emailStatus: 'sent',
    });
    expect(body.failed).toEqual([]);
    const spec = await run(() => giftCardIssuancesLoader({ request: getRequest('/api/gift-card-issuances', shop.owner.jar), context: app.context(), params: {} }));
    expect((spec.body as unknown[]).length).toBe(body.issuances.length);

    const other = await signedInOwner(app, 'Someone Else');
    const theirs = await run(() => issuancesLoader({ request: getRequest('/api/rewards/issuances', other.jar), context: app.context(), params: {} }));
    expect(theirs.body).toEqual({ issuances: [], failed: [] });
    const anonymous = await run(() => issuancesLoader({ request: getRequest('/api/rewards/issuances'), context: app.context(), params: {} }));
    expect(anonymous.status).toBe(401);
  });
});

describe('a reward that fails after the last retry', () => {
  let app: TestApp;
  let failing = true;
  /** A provider that is down until `failing` is false. */
  const flaky: GiftCards = {
    id: 'test',
    async issue(request) {
      if (failing) throw new GiftCardError('Square answered 503 SERVICE_UNAVAILABLE to create a gift card', { retryable: true, code: 'SERVICE_UNAVAILABLE', status: 503 });
      return { giftCardId: `flaky-${request.rewardKey}`, gan: '7783000011112222', isSquareGiftCard: false };
    },
  };

  beforeAll(async () => {
    app = await createTestApp({}, { jobs: true, jobPolicies: { ...FAST_RETRIES, 'reward-issue': { ...FAST_RETRIES['reward-issue'], retryLimit: 2 } }, giftCards: { test: flaky } });
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is visible to the owner (list) and to support (listFailures), and issues exactly once when retried', async () => {
    const shop = await rewardingBusiness(app, 'Down Cafe');
    const responseId = await shop.submit('unlucky@example.com', 'Unlucky');
    await expect.poll(async () => (await listFailures(app.root.db.orm.em.fork())).length, { timeout: 30_000, interval: 250 }).toBe(1);
    const [failure] = await listFailures(app.root.db.orm.em.fork(), { businessId: shop.businessId });
    expect(failure).toMatchObject({
      stage: 'issue',
      surveyResponseId: responseId,
      customerEmail: 'unlucky@example.com',
      rewardTier: 'Silver',
      rewardValue: 300,
      attempts: 3,
      lastError: expect.stringContaining('503 SERVICE_UNAVAILABLE'),
    });
    const seen = await run(() => issuancesLoader({ request: getRequest('/api/rewards/issuances', shop.owner.jar), context: app.context(), params: {} }));
    expect((seen.body as { failed: unknown[] }).failed).toEqual([expect.objectContaining({ stage: 'issue', surveyResponseId: responseId, customerName: 'Unlucky' })]);
    const other = await signedInOwner(app, 'Not Yours');
    const hidden = await run(() => issuancesLoader({ request: getRequest('/api/rewards/issuances', other.jar), context: app.context(), params: {} }));
    expect(hidden.body).toEqual({ issuances: [], failed: [] });

    failing = false;
    const [retried, twice] = await Promise.all([
      retryFailed(app.root.db.orm.em.fork(), app.root.jobs!),
      retryFailed(app.root.db.orm.em.fork(), app.root.jobs!),
    ]);
    expect(retried.length + twice.length).toBeGreaterThanOrEqual(1);
    await waitForEmailed(app, [responseId]);
    expect(await listFailures(app.root.db.orm.em.fork())).toEqual([]);
    const [count] = await query<{ n: number }>(app, `select count(*)::int as n from gift_card_issuances where survey_response_id = ?`, [responseId]);
    expect(count!.n).toBe(1);
    expect((await readOutbox(app.root)).filter((m) => m.to === 'unlucky@example.com')).toHaveLength(1);
  });
});


describe('the reward email over real SMTP', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;

  beforeAll(async () => {
    smtp = await startRefusingSmtp();
    app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}?starttls=false`, MAIL_FROM: 'RewardLoop <rewards@rewardloop.test>' }, { jobs: true, jobPolicies: FAST_RETRIES });
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('arrives with HTML and text, the card number, and a Message-ID derived from the issuance', async () => {
    const shop = await rewardingBusiness(app, 'Bean There');
    const responseId = await shop.submit('smtp-customer@example.com', 'José');
    await waitForEmailed(app, [responseId]);
    const issuance = (await issuanceOf(app, responseId))!;
    const mail = smtp.received.find((m) => m.messageId === `<reward-${issuance.id}@localhost>`)!;
    expect(mail).toBeDefined();
    expect(mail.subject).toBe('[TEST] Your $3.00 test gift card from Bean There');
    expect(mail.from?.value[0]?.address).toBe('rewards@rewardloop.test');
    expect(mail.text).toContain('Hi José,');
    expect(mail.text).toContain(`Gift card number: ${issuance.gift_card_number}`);
    expect(mail.html).toContain('$3.00');
    expect(mail.html).toContain('Silver reward');
  });

  it('SMTP refusing, then accepting: the email is retried and arrives exactly once', async () => {
    const shop = await rewardingBusiness(app, 'Flaky Mail Deli');
    smtp.state.refuse = 3;
    const responseId = await shop.submit('retry-mail@example.com', 'Retry');
    await waitForEmailed(app, [responseId]);
    expect(smtp.state.refused).toBeGreaterThanOrEqual(3);
    const issuance = (await issuanceOf(app, responseId))!;
    expect(issuance.email_attempts).toBe(4);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.filter((m) => m.messageId === `<reward-${issuance.id}@localhost>`)).toHaveLength(1);
  });
});
