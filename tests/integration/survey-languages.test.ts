import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as putConfig, loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { action as createConfig } from '#app/routes/api+/survey.builder-config.ts';
import { action as builderAction } from '#app/routes/_surveys+/survey-builder.tsx';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { loader as pageOne } from '#app/routes/_analytics+/survey-analytics.$surveyId.tsx';
import { loader as pageAll } from '#app/routes/_analytics+/survey-analytics._index.tsx';
import { loader as exportLoader } from '#app/routes/_analytics+/survey-analytics.export.$kind.ts';
import type { SurveyPageData } from '#app/customer/state.ts';
import type { AnalyticsPageData } from '#app/utils/analytics.server.ts';
import { LANGUAGES_MESSAGES } from '../../modules/surveys/forms.ts';
import { startRewardWorkers } from '../../server/composition.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { builderFields, connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { query, SILVER_ANSWERS } from '../setup/rewards.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { BASE } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 30, ADR 086: the owner chooses which languages a survey offers; the customer page, the
// submission, the analytics and the emails to the customer follow that choice.

let app: TestApp;
let pages: PageServer;
let base: string;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
  pages = await servePages(app.root);
  base = pages.base;
}, 180_000);
afterAll(async () => {
  await pages?.close();
  await app?.close();
});

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.86.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};
const ctx = () => app.context(nextIp());

/** A published survey customers can answer, with the given config overrides (e.g. `languages`). */
async function openShop(name: string, overrides: Record<string, unknown> = {}) {
  const owner = await signedInOwner(app, name);
  const surveyId = (await createSurvey(app, owner.jar, overrides)).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, owner.id);
  return { businessId: owner.id, surveyId, jar: owner.jar };
}
type Shop = Awaited<ReturnType<typeof openShop>>;

const readConfig = async (jar: CookieJar, id: string) => (await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }))).body as { languages: string[] };
const put = (jar: CookieJar, id: string, body: Record<string, unknown>) => run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody(body), jar, 'PUT'), context: ctx(), params: { id } }));

describe('the config API: languages', () => {
  it('defaults to English only, takes a list whose first is the default, reads it back, and keeps it when a PUT leaves it out', async () => {
    const { jar } = await signedInOwner(app, 'Lang API Cafe');
    const { id } = await createSurvey(app, jar);
    expect((await readConfig(jar, id)).languages).toEqual(['en']);

    const res = await put(jar, id, { languages: ['es', 'en', 'pt'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ languages: ['es', 'en', 'pt'] });
    expect((await readConfig(jar, id)).languages).toEqual(['es', 'en', 'pt']);

    expect((await put(jar, id, { title: 'Renamed' })).status).toBe(200);
    expect((await readConfig(jar, id)).languages).toEqual(['es', 'en', 'pt']);

    const created = await run(() => createConfig({ request: jsonRequest('/api/survey/builder-config', surveyBody({ languages: ['fr'] }), jar), context: ctx(), params: {} }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ languages: ['fr'] });
  });

  it.each([
    ['a string', 'es', LANGUAGES_MESSAGES.notList],
    ['null', null, LANGUAGES_MESSAGES.notList],
    ['an object', { en: true }, LANGUAGES_MESSAGES.notList],
    ['an empty list', [], LANGUAGES_MESSAGES.empty],
    ['an unknown code', ['en', 'xx'], LANGUAGES_MESSAGES.unknown],
    ['a tag, not a code', ['pt-BR'], LANGUAGES_MESSAGES.unknown],
    ['a number', [1], LANGUAGES_MESSAGES.unknown],
    ['a repeated code', ['en', 'es', 'en'], LANGUAGES_MESSAGES.repeated],
  ])('refuses %s with a 400 that says why, and the survey keeps its languages', async (_label, languages, message) => {
    const { jar } = await signedInOwner(app, 'Lang Bad Cafe');
    const { id } = await createSurvey(app, jar, { languages: ['de', 'en'] });
    const res = await put(jar, id, { languages });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect((await readConfig(jar, id)).languages).toEqual(['de', 'en']);
  });
});

describe('the builder: languages as checkboxes and a default language', () => {
  const save = (jar: CookieJar, fields: Record<string, string | string[]>, surveyId?: string) =>
    run(() => builderAction({ request: formRequest(`/survey-builder${surveyId ? `?surveyId=${surveyId}` : ''}`, builderFields(fields), jar), context: ctx(), params: {} }));

  it('a form post (no JavaScript) stores the ticked languages, the default first; a form without the control keeps them', async () => {
    const { jar } = await signedInOwner(app, 'Lang Builder Cafe');
    const res = await save(jar, { languages: ['en', 'fr', 'de'], defaultLanguage: 'fr' });
    expect(res.status).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(res.headers.get('Location')!)![1]!;
    expect((await readConfig(jar, id)).languages).toEqual(['fr', 'en', 'de']);
    expect((await save(jar, { title: 'No language control' }, id)).status).toBe(302);
    expect((await readConfig(jar, id)).languages).toEqual(['fr', 'en', 'de']);
  });

  it.each([
    ['no language ticked', { defaultLanguage: 'en' }, LANGUAGES_MESSAGES.empty],
    ['a default not ticked', { languages: ['en', 'es'], defaultLanguage: 'de' }, LANGUAGES_MESSAGES.defaultNotOffered],
    ['an unknown language', { languages: ['en', 'klingon'], defaultLanguage: 'en' }, LANGUAGES_MESSAGES.unknown],
    ['an unknown default', { languages: ['en'], defaultLanguage: '<b>' }, LANGUAGES_MESSAGES.unknown],
  ])('refuses %s inline, storing nothing', async (_label, fields, message) => {
    const { jar } = await signedInOwner(app, 'Lang Builder Bad');
    const { id } = await createSurvey(app, jar, { languages: ['pt'] });
    const res = await save(jar, fields as Record<string, string | string[]>, id);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect((await readConfig(jar, id)).languages).toEqual(['pt']);
  });

  it('the builder page shows the five languages named in themselves, the offered ones ticked, the default chosen', async () => {
    const { jar } = await signedInOwner(app, 'Lang Builder Page');
    const { id } = await createSurvey(app, jar, { languages: ['es', 'en'] });
    const res = await fetch(`${base}/survey-builder?surveyId=${id}`, { headers: { Cookie: jar.header(), Accept: 'text/html', 'X-Forwarded-For': nextIp() } });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const name of ['English', 'Español', 'Français', 'Deutsch', 'Português']) expect(html).toContain(name);
    const inputs = [...html.matchAll(/<input [^>]*>/g)].map((m) => m[0]);
    const box = (code: string) => inputs.find((i) => i.includes('type="checkbox"') && i.includes('name="languages"') && i.includes(`value="${code}"`)) ?? '';
    expect(box('es')).toContain('checked');
    expect(box('en')).toContain('checked');
    expect(box('fr')).not.toContain('checked');
    const radio = (code: string) => inputs.find((i) => i.includes('type="radio"') && i.includes('name="defaultLanguage"') && i.includes(`value="${code}"`)) ?? '';
    expect(box('fr')).not.toBe('');
    expect(radio('en')).not.toBe('');
    expect(radio('es')).toContain('checked');
    expect(radio('en')).not.toContain('checked');
  });
});

/** The survey page as a browser gets it, through the Express pipeline. */
async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { headers: { 'X-Forwarded-For': nextIp(), Accept: 'text/html', ...headers }, redirect: 'manual' });
  const html = await res.text();
  return { status: res.status, lang: /<html lang="([^"]+)"/.exec(html)?.[1], html, cookie: res.headers.getSetCookie().find((c) => c.startsWith('rl_lang=')) ?? null };
}

describe('the customer page offers only the survey’s languages', () => {
  let shop: Shop;
  let englishOnly: Shop;
  const path = () => `/survey/public/${shop.businessId}/${shop.surveyId}`;
  beforeAll(async () => {
    // Spanish first: the survey's default language; English offered too.
    shop = await openShop('Café Bilingüe', { languages: ['es', 'en'] });
    englishOnly = await openShop('English Tea Room');
  }, 120_000);

  it('an offered language is taken from ?lang=, the cookie or Accept-Language; with none of them, the survey’s first', async () => {
    expect(await page(path())).toMatchObject({ status: 200, lang: 'es' });
    expect(await page(`${path()}?lang=en`)).toMatchObject({ lang: 'en', cookie: expect.stringContaining('rl_lang=en') });
    expect(await page(path(), { Cookie: 'rl_lang=en' })).toMatchObject({ lang: 'en' });
    // Accept-Language: the first the survey offers, by q-value (French is not offered).
    expect(await page(path(), { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.5' })).toMatchObject({ lang: 'en' });
  });

  it('a language not offered is skipped: ?lang=, cookie and Accept-Language fall back to the survey’s first, and no cookie is left', async () => {
    expect(await page(`${path()}?lang=fr`)).toMatchObject({ status: 200, lang: 'es', cookie: null });
    expect(await page(path(), { Cookie: 'rl_lang=de' })).toMatchObject({ lang: 'es' });
    expect(await page(path(), { 'Accept-Language': 'de-DE,de;q=0.9' })).toMatchObject({ lang: 'es' });
    // ?lang= not offered does not beat an offered cookie.
    expect(await page(`${path()}?lang=pt`, { Cookie: 'rl_lang=en' })).toMatchObject({ lang: 'en', cookie: null });
  });

  it('the switcher lists only the offered languages; a survey in one language has none', async () => {
    const { html } = await page(path());
    expect(html).toContain('data-testid="language-switcher"');
    expect(html).toContain(`href="${path()}?lang=en"`);
    for (const other of ['fr', 'de', 'pt']) expect(html).not.toContain(`?lang=${other}"`);
    const single = await page(`/survey/public/${englishOnly.businessId}/${englishOnly.surveyId}?lang=es`);
    expect(single).toMatchObject({ status: 200, lang: 'en' });
    expect(single.html).not.toContain('data-testid="language-switcher"');
  });

  it('the form post (no JavaScript) answers and stores in an offered language only', async () => {
    const post = (query: string, email: string) =>
      run(() =>
        publicPage.action({
          request: formRequest(`${path()}${query}`, [['overall_rating', '5'], ['recommend', 'yes'], ['customerEmail', email], ['_section', '2'], ['_intent', 'submit']]),
          context: ctx(),
          params: { businessId: shop.businessId, surveyId: shop.surveyId },
        }),
      );
    const fr = await post('?lang=fr', 'form-fr@example.com');
    expect((fr.body as SurveyPageData).locale).toBe('es');
    const en = await post('?lang=en', 'form-en@example.com');
    expect((en.body as SurveyPageData).locale).toBe('en');
    expect(await storedLocale('form-fr@example.com')).toBe('es');
    expect(await storedLocale('form-en@example.com')).toBe('en');
  });

  it('the JSON API: an offered locale is stored; one not offered, or none, is the survey’s first; an unknown one is a 400', async () => {
    const submit = (body: Record<string, unknown>) =>
      run(() => submitApi({ request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, body), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
    expect((await submit({ responses: { overall_rating: 4 }, customerEmail: 'api-en@example.com', locale: 'en' })).status).toBe(201);
    expect((await submit({ responses: { overall_rating: 4 }, customerEmail: 'api-de@example.com', locale: 'de' })).status).toBe(201);
    expect((await submit({ responses: { overall_rating: 4 }, customerEmail: 'api-none@example.com' })).status).toBe(201);
    expect(await storedLocale('api-en@example.com')).toBe('en');
    expect(await storedLocale('api-de@example.com')).toBe('es');
    expect(await storedLocale('api-none@example.com')).toBe('es');
    const bad = await submit({ responses: { overall_rating: 4 }, customerEmail: 'api-xx@example.com', locale: 'xx' });
    expect(bad.status).toBe(400);
    expect(await storedLocale('api-xx@example.com')).toBeUndefined();
  });
});

const storedLocale = async (email: string) => (await query<{ locale: string | null }>(app, 'select locale from survey_responses where customer_email = ?', [email]))[0]?.locale;

describe('analytics by language', () => {
  let a: Shop;
  let b: Shop;
  const submitAs = (shop: Shop, email: string, locale: string) =>
    run(() =>
      submitApi({ request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: { overall_rating: 5 }, customerEmail: email, locale }), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }),
    );
  beforeAll(async () => {
    a = await openShop('Analytics Lingua A', { languages: ['en', 'es', 'fr'] });
    b = await openShop('Analytics Lingua B', { languages: ['en', 'es'] });
    for (const [shop, email, locale] of [
      [a, 'a-es-1@example.com', 'es'],
      [a, 'a-es-2@example.com', 'es'],
      [a, 'a-fr@example.com', 'fr'],
      [a, 'a-en@example.com', 'en'],
      [b, 'b-es@example.com', 'es'],
    ] as const) {
      expect((await submitAs(shop, email, locale)).status).toBe(201);
    }
    // A response stored before languages existed (no locale) counts as English.
    await query(app, `update survey_responses set locale = null where customer_email = 'a-en@example.com'`);
  }, 120_000);

  const analytics = async (shop: Shop, search: string, jar = shop.jar) =>
    run(() => pageOne({ request: getRequest(`/survey-analytics/${shop.surveyId}${search}`, jar), context: ctx(), params: { surveyId: shop.surveyId } }));
  const emails = (data: AnalyticsPageData) => data.responses!.rows.map((r) => r.customerEmail).sort();

  it('shows each response’s language and filters by ?language=', async () => {
    const all = (await analytics(a, '')).body as AnalyticsPageData;
    expect(Object.fromEntries(all.responses!.rows.map((r) => [r.customerEmail, r.locale]))).toEqual({ 'a-es-1@example.com': 'es', 'a-es-2@example.com': 'es', 'a-fr@example.com': 'fr', 'a-en@example.com': 'en' });
    const es = await analytics(a, '?language=es');
    expect(es.status).toBe(200);
    expect(emails(es.body as AnalyticsPageData)).toEqual(['a-es-1@example.com', 'a-es-2@example.com']);
    expect((es.body as AnalyticsPageData).query.language).toBe('es');
    expect(emails((await analytics(a, '?language=en')).body as AnalyticsPageData)).toEqual(['a-en@example.com']);
    expect(emails((await analytics(a, '?language=es&q=es-2')).body as AnalyticsPageData)).toEqual(['a-es-2@example.com']);
  });

  it('the page renders the Language column and the filter as a GET form (works without JavaScript)', async () => {
    const res = await fetch(`${base}/survey-analytics/${a.surveyId}?language=es`, { headers: { Cookie: a.jar.header(), Accept: 'text/html', 'X-Forwarded-For': nextIp() } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<form method="get"[^>]*role="search"/);
    expect(html).toMatch(/<select id="language" name="language"/);
    expect(html).toMatch(/<option value="es" selected="">Spanish<\/option>/);
    expect([...html.matchAll(/data-testid="response-language">([^<]+)</g)].map((m) => m[1])).toEqual(['Spanish', 'Spanish']);
  });

  it('an unknown ?language= is a 400 with a message, not an error page', async () => {
    const res = await analytics(a, '?language=xx');
    expect(res.status).toBe(400);
    expect((res.body as AnalyticsPageData).error).toMatchObject({ field: 'language', message: expect.stringContaining('Unknown language "xx"') });
  });

  it('owner isolation: another owner sees none of these responses, by survey id, in All Surveys, or in the CSV', async () => {
    expect((await analytics(a, '?language=es', b.jar)).status).toBe(404);
    const allOfB = (await run(() => pageAll({ request: getRequest('/survey-analytics?language=es', b.jar), context: ctx(), params: {} }))).body as AnalyticsPageData;
    expect(emails(allOfB)).toEqual(['b-es@example.com']);
    const csvOfA = await run(() => exportLoader({ request: getRequest(`/survey-analytics/export/responses?survey=${a.surveyId}&language=es`, b.jar), context: ctx(), params: { kind: 'responses' } }));
    expect(csvOfA.status).toBe(404);
    const csvOfB = String((await run(() => exportLoader({ request: getRequest('/survey-analytics/export/responses?language=es', b.jar), context: ctx(), params: { kind: 'responses' } }))).body);
    expect(csvOfB).toContain('b-es@example.com');
    expect(csvOfB).not.toContain('a-es-1@example.com');
  });

  it('the response detail page names the response’s language in English (owner pages stay English); another owner gets a 404', async () => {
    const idOf = async (email: string) => (await query<{ id: string }>(app, 'select id from survey_responses where customer_email = ?', [email]))[0]!.id;
    const detail = (id: string, jar: CookieJar) => fetch(`${base}/survey-analytics/responses/${id}`, { headers: { Cookie: jar.header(), Accept: 'text/html', 'X-Forwarded-For': nextIp() } });
    const es = await detail(await idOf('a-es-1@example.com'), a.jar);
    expect(es.status).toBe(200);
    const html = await es.text();
    expect(html).toContain('<html lang="en">');
    expect(/data-testid="response-language">([^<]+)</.exec(html)?.[1]).toBe('Spanish');
    // Stored before languages existed (null): English.
    expect(/data-testid="response-language">([^<]+)</.exec(await (await detail(await idOf('a-en@example.com'), a.jar)).text())?.[1]).toBe('English');
    expect((await detail(await idOf('a-fr@example.com'), b.jar)).status).toBe(404);
  });

  it('the CSV has a Language column and follows the filter', async () => {
    const res = await run(() => exportLoader({ request: getRequest(`/survey-analytics/export/responses?survey=${a.surveyId}&language=es`, a.jar), context: ctx(), params: { kind: 'responses' } }));
    expect(res.status).toBe(200);
    const [header, ...rows] = String(res.body).replace(/^\uFEFF/, '').trim().split(/\r?\n/).map((line) => line.split(','));
    const col = header!.indexOf('Language');
    expect(col).toBeGreaterThan(-1);
    expect(rows.map((r) => r[col])).toEqual(['es', 'es']);
    const all = String((await run(() => exportLoader({ request: getRequest(`/survey-analytics/export/responses?survey=${a.surveyId}`, a.jar), context: ctx(), params: { kind: 'responses' } }))).body);
    const allRows = all.replace(/^\uFEFF/, '').trim().split(/\r?\n/).slice(1).map((line) => line.split(','));
    expect(allRows.map((r) => r[col]).sort()).toEqual(['en', 'es', 'es', 'fr']);
  });
});

describe('emails to the customer in their language', () => {
  it('the confirm-your-email message goes out in Spanish for a Spanish response', async () => {
    // The owner named Silver in Spanish (ADR 090): both emails use their name, not the catalog's 'Plata'.
    const shop = await openShop('Café Confirma', { languages: ['en', 'es'], verifyCustomerEmail: true, translations: { es: { rewards: { Silver: 'Plata de la casa' } } } });
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
    const res = await run(() =>
      submitApi({
        request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: SILVER_ANSWERS, customerEmail: 'lucia.confirma@example.com', customerName: 'Lucía', locale: 'es' }),
        context: ctx(),
        params: { businessId: shop.businessId, surveyId: shop.surveyId },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ rewardChecking: true, confirmEmail: true });
    const mail = await expect
      .poll(async () => (await readOutbox(app.root)).find((m) => m.to.includes('lucia.confirma@example.com')), { timeout: 30_000, interval: 250 })
      .toBeDefined()
      .then(async () => (await readOutbox(app.root)).find((m) => m.to.includes('lucia.confirma@example.com'))!);
    expect(mail.subject).toBe('Confirma tu correo para tu tarjeta regalo de Café Confirma');
    expect(mail.text).toContain('Hola, Lucía:');
    expect(mail.text).toMatch(/Para recibir tu tarjeta regalo Plata de la casa de 3,00\s\$, confirma que esta es tu dirección de correo:/);
    expect(mail.text).toMatch(/https?:\/\/\S+\/reward-confirm\/[A-Za-z0-9_-]+/);
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('Confirmar mi correo');
    expect(mail.text).not.toContain('Confirm my email');

    // ADR 090: the link opens the reward-confirm page in Spanish, and the click answers in Spanish.
    const link = /https?:\/\/\S+\/reward-confirm\/[A-Za-z0-9_-]+\?lang=es/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    const path = new URL(link!).pathname + new URL(link!).search;
    const shown = await page(path);
    expect(shown).toMatchObject({ status: 200, lang: 'es' });
    expect(shown.html).toContain('Confirma tu correo');
    expect(shown.html).toContain('Confirmar mi correo');
    const action = /<form method="post" action="([^"]+)"/.exec(shown.html)?.[1]?.replace(/&amp;/g, '&');
    expect(action).toBe(path);
    const clicked = await fetch(base + action, { method: 'POST', headers: { 'X-Forwarded-For': nextIp(), Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    const answer = await clicked.text();
    expect(answer).toContain('<html lang="es">');
    expect(answer).toContain('Correo confirmado');
    expect(answer).not.toContain('Email confirmed');

    // The gift card's email follows, in Spanish, with the owner's name for the tier.
    const reward = await expect
      .poll(async () => (await readOutbox(app.root)).find((m) => m.to.includes('lucia.confirma@example.com') && m.subject.includes('PRUEBA')), { timeout: 30_000, interval: 250 })
      .toBeDefined()
      .then(async () => (await readOutbox(app.root)).find((m) => m.to.includes('lucia.confirma@example.com') && m.subject.includes('PRUEBA'))!);
    expect(reward.text).toContain('Nivel: Plata de la casa');
    expect(reward.html).toContain('Plata de la casa');
  }, 60_000);

  it('the reward-confirm page picks among all five languages by ?lang=, the cookie or Accept-Language; a bad token says so in that language', async () => {
    expect(await page('/reward-confirm/not-a-token')).toMatchObject({ status: 200, lang: 'en' });
    const de = await page('/reward-confirm/not-a-token', { 'Accept-Language': 'de-DE,de;q=0.9' });
    expect(de).toMatchObject({ lang: 'de' });
    expect(de.html).toContain('Bestätigen Sie Ihre E-Mail-Adresse');
    // A customer's page: no RewardLoop account bar (Sign In / Sign Up) in English above it.
    expect(de.html).not.toContain('>Sign In<');
    expect(await page('/reward-confirm/not-a-token', { Cookie: 'rl_lang=pt' })).toMatchObject({ lang: 'pt' });
    const fr = await fetch(`${base}/reward-confirm/not-a-token?lang=fr`, { method: 'POST', headers: { 'X-Forwarded-For': nextIp(), Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(fr.status).toBe(400);
    const html = await fr.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Ce lien n'est pas valide".replace("'", '&#x27;'));
  });
});

describe('screenshot rejections in the customer’s language (ADR 090)', () => {
  let shop: Shop;
  const png = () => sharp({ create: { width: 320, height: 200, channels: 3, background: '#eeeeee' } }).png().toBuffer();
  beforeAll(async () => {
    shop = await openShop('Café Rechazo', { languages: ['es', 'en'] });
  }, 120_000);

  const postRejected = async (query: string) => {
    const form = new FormData();
    for (const [k, v] of [
      ['overall_rating', '5'],
      ['review_google_reviewer_name', 'reject'],
      ['review_google_review_link', 'https://g.page/r/crumb/review'],
      ['_section', '2'],
      ['_intent', 'stay'],
    ]) form.set(k!, v!);
    form.set('file:review_google_screenshot', new File([Buffer.concat([await png(), Buffer.from('FAKE-REJECT')])], 'review.png', { type: 'image/png' }));
    const path = `/survey/public/${shop.businessId}/${shop.surveyId}${query}`;
    const res = await run(() => publicPage.action({ request: new Request(BASE + path, { method: 'POST', body: form }), context: ctx(), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
    return (res.body as SurveyPageData).step;
  };

  it('the form post (no JavaScript) says the rejection code’s sentence in Spanish; English keeps the verifier’s own words', async () => {
    const es = await postRejected('');
    expect(es.states.google).toMatchObject({ status: 'failed', error: 'Esto no parece tu reseña de Google. Sube una captura de la reseña en sí, con tu nombre y la fecha.' });
    expect(es.errors.review_google_screenshot).toBe(es.states.google?.error);
    const en = await postRejected('?lang=en');
    expect(en.states.google?.status).toBe('failed');
    expect(en.states.google?.error).not.toMatch(/reseña/);
    expect(en.states.google?.error).toBeTruthy();
  });

  it('the submit API gives a refusal naming a platform with its catalog key and words, for the page to say in Spanish', async () => {
    const res = await run(() =>
      submitApi({
        request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: { overall_rating: 5, review_google_reviewer_name: 'Ana' }, customerEmail: 'incompleta@example.com', locale: 'es' }),
        context: ctx(),
        params: { businessId: shop.businessId, surveyId: shop.surveyId },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      title: 'Incomplete Review Submission',
      message: "Please complete all fields for your Google review or remove what you've entered.",
      key: "Please complete all fields for your {{platform}} review or remove what you've entered.",
      params: { platform: 'Google' },
    });
  });

  it('the verify API keeps its English rejectionReason and gives the rejectionCode the page translates', async () => {
    const body = new FormData();
    for (const [k, v] of [['businessId', shop.businessId], ['surveyId', shop.surveyId], ['platform', 'google'], ['reviewerName', 'reject'], ['reviewLink', 'https://g.page/r/crumb/review']]) body.set(k!, v!);
    body.set('screenshot', new File([Buffer.concat([await png(), Buffer.from('FAKE-REJECT')])], 'review.png', { type: 'image/png' }));
    const res = await fetch(`${base}/api/verify-screenshot?lang=es`, { method: 'POST', headers: { 'X-Forwarded-For': nextIp(), 'Accept-Language': 'es' }, body });
    const answer = (await res.json()) as { isValid: boolean; rejectionReason: string; rejectionCode: string };
    expect(answer).toMatchObject({ isValid: false, rejectionCode: 'not_a_review' });
    expect(answer.rejectionReason).not.toMatch(/reseña/);
  });
});
