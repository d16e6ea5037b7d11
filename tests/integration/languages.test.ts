import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import type { SurveyIslandData } from '#app/customer/island-data.ts';
import type { SurveyPageData } from '#app/customer/state.ts';
import { SurveyApp } from '#app/customer/survey-page.tsx';
import { englishTranslator, LOCALES, type Locale } from '../../modules/i18n/index.ts';
import { createTranslator } from '../../modules/i18n/translator.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { connectSquareForTest, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { formRequest, jsonRequest, run } from '../setup/http.ts';
import { query } from '../setup/rewards.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 30, ADR 084: the customer page in the customer's language, with and without JavaScript.

let app: TestApp;
let pages: PageServer;
let base: string;
let businessId: string;
let surveyId: string;

beforeAll(async () => {
  app = await createTestApp();
  pages = await servePages(app.root);
  base = pages.base;
  const owner = await signedInOwner(app, 'Café Lingua');
  businessId = owner.id;
  // The survey offers every language (ADR 086), English first.
  surveyId = (await createSurvey(app, owner.jar, { languages: [...LOCALES] })).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareForTest(app, businessId);
}, 180_000);
afterAll(async () => {
  await pages?.close();
  await app?.close();
});

const pagePath = () => `/survey/public/${businessId}/${surveyId}`;
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.83.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/** The page as a browser gets it (the Express pipeline in front of Vite's SSR build), with its own headers. */
async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { headers: { 'X-Forwarded-For': nextIp(), Accept: 'text/html', ...headers }, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

const htmlLang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];
/** The server-rendered survey (what a browser without JavaScript shows) and the island's data. */
function island(html: string) {
  const root = /<div id="survey-root">([\s\S]*)<\/div><script type="application\/json" id="survey-data">/.exec(html)?.[1];
  const data = /<script type="application\/json" id="survey-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return { root: root ?? '', data: JSON.parse(data ?? 'null') as SurveyIslandData };
}

/** What the island renders when it hydrates: the translator it makes (island.tsx), from the page's own data. */
function hydratedHtml(data: SurveyIslandData) {
  const locale = data.page.locale ?? 'en';
  const translator = locale === 'en' ? englishTranslator(data.page.messages) : createTranslator(locale, data.page.messages);
  return renderToString(createElement(SurveyApp, { page: data.page, action: data.action, translator }));
}

/** Words each language shows on the first section (template text, buttons, header). */
const FIRST_SECTION: Record<Locale, string[]> = {
  en: ['Your Visit', 'How would you rate your overall experience?', 'Continue for Higher Reward', 'Submit Early', 'Share your experience with Café Lingua', 'Section 1 of 3', 'Gift card rewards', 'Weekly', '0 points'],
  es: ['Tu visita', '¿Cómo valorarías tu experiencia en general?', 'Continuar para una recompensa mayor', 'Enviar ya', 'Comparte tu experiencia con Café Lingua', 'Sección 1 de 3', 'Cada semana', '0 puntos'],
  fr: ['Votre visite', 'Continuer pour une meilleure récompense', 'Envoyer maintenant', 'Partagez votre expérience avec Café Lingua', 'Partie 1 sur 3', 'Chaque semaine', '0 point'],
  de: ['Ihr Besuch', 'Wie bewerten Sie Ihren Besuch insgesamt?', 'Weiter für eine höhere Belohnung', 'Jetzt absenden', 'Teilen Sie Ihre Erfahrung mit Café Lingua', 'Teil 1 von 3', 'Jede Woche', '0 Punkte'],
  pt: ['Sua visita', 'Como você avalia sua experiência em geral?', 'Continuar para uma recompensa maior', 'Enviar agora', 'Conte como foi sua experiência com Café Lingua', 'Seção 1 de 3', 'Toda semana', 'Faltam 5 pontos para Bronze'],
};

describe('each language renders, with and without JavaScript', () => {
  it.each(LOCALES)('%s: the server HTML is in that language, <html lang> says so, and the island renders the same', async (locale) => {
    const res = await page(`${pagePath()}?lang=${locale}`);
    expect(res.status).toBe(200);
    expect(htmlLang(res.html)).toBe(locale);
    const text = visibleText(res.html);
    for (const words of FIRST_SECTION[locale]) expect(text, words).toContain(words);
    if (locale !== 'en') for (const english of ['Continue for Higher Reward', 'Submit Early', 'Gift card rewards']) expect(text).not.toContain(english);
    // The language switcher: plain links, every language named in itself, this one current.
    expect(res.html).toMatch(new RegExp(`<span lang="${locale}" aria-current="true"`));
    for (const other of LOCALES.filter((l) => l !== locale)) expect(res.html).toContain(`href="${pagePath()}?lang=${other}"`);
    // With JavaScript: the island, from the page's own data, renders exactly what the server sent.
    const { root, data } = island(res.html);
    expect(data.page.locale).toBe(locale);
    expect(hydratedHtml(data)).toBe(root);
  });

  it('English stays the default, word for word, and sends the browser only its plural forms', async () => {
    const res = await page(pagePath());
    expect(htmlLang(res.html)).toBe('en');
    const { data, root } = island(res.html);
    expect(data.page.locale).toBe('en');
    expect(Object.keys(data.page.messages ?? {}).every((k) => /_(one|other)$/.test(k) || k.startsWith('Your {{value}} gift card would be sent'))).toBe(true);
    expect(hydratedHtml(data)).toBe(root);
    expect(visibleText(res.html)).toContain('Share your experience with Café Lingua');
  });

  it("'Survey Not Found' in the customer's language (a short link no survey has)", async () => {
    const res = await page('/s/abcdefghj?lang=de');
    expect(res.status).toBe(404);
    expect(htmlLang(res.html)).toBe('de');
    expect(visibleText(res.html)).toContain('Umfrage nicht gefunden');
    expect(visibleText(res.html)).toContain('Bitte fragen Sie das Personal nach einem aktuellen Link oder QR-Code.');
    expect(res.html).toContain('<title>Umfrage nicht gefunden</title>');
  });
});

describe('the language: ?lang= first, then the cookie, then Accept-Language, else English', () => {
  const lang = async (path: string, headers: Record<string, string> = {}) => {
    const res = await page(path, headers);
    return { lang: htmlLang(res.html), locale: island(res.html).data.page.locale, cookie: res.headers.getSetCookie().find((c) => c.startsWith('rl_lang=')) ?? null, vary: res.headers.get('Vary') };
  };

  it('takes them in that order; ?lang= is remembered by a cookie', async () => {
    const both = { Cookie: 'rl_lang=fr', 'Accept-Language': 'de-DE,de;q=0.9' };
    expect(await lang(`${pagePath()}?lang=es`, both)).toMatchObject({ lang: 'es', locale: 'es', cookie: expect.stringContaining('rl_lang=es') });
    expect(await lang(pagePath(), both)).toMatchObject({ lang: 'fr', locale: 'fr', cookie: null });
    expect(await lang(pagePath(), { 'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.8' })).toMatchObject({ lang: 'pt', locale: 'pt' });
    expect(await lang(pagePath(), { 'Accept-Language': 'ja,zh;q=0.5' })).toMatchObject({ lang: 'en', locale: 'en' });
    expect((await lang(pagePath())).vary).toContain('Accept-Language');
  });

  it('an unknown ?lang= or cookie is skipped, never an error', async () => {
    expect(await lang(`${pagePath()}?lang=xx`, { Cookie: 'rl_lang=<b>', 'Accept-Language': 'de' })).toMatchObject({ lang: 'de', cookie: null });
  });
});

const context = () => app.context(nextIp());
const params = () => ({ businessId, surveyId });
const post = (fields: Array<[string, string]>, path: string) => run(() => publicPage.action({ request: formRequest(path, fields), context: context(), params: params() }));
const render = (data: SurveyPageData, path: string) => visibleText(hydratedHtml({ page: data, action: path }));
const storedLocale = async (email: string) => (await query<{ locale: string | null }>(app, 'select locale from survey_responses where customer_email = ?', [email]))[0]?.locale;

describe('without JavaScript: the form posts answer in the language', () => {
  it('a refusal (Continue without the rating) says why in Spanish', async () => {
    const path = `${pagePath()}?lang=es`;
    const res = await post([['_section', '0'], ['_intent', 'next'], ['recommend', 'yes']], path);
    expect(res.status).toBe(400);
    const data = res.body as SurveyPageData;
    expect(data.locale).toBe('es');
    const text = render(data, path);
    expect(text).toContain('Valora tu experiencia general para continuar.');
    expect(text).toContain('Falta un campo obligatorio');
  });

  it('a submission stores the language and thanks the customer in it', async () => {
    const path = `${pagePath()}?lang=de`;
    const res = await post([['overall_rating', '5'], ['recommend', 'yes'], ['visit_frequency', 'Weekly'], ['customerEmail', 'lang-de@example.com'], ['_section', '2'], ['_intent', 'submit']], path);
    expect(res.status).toBe(200);
    const data = res.body as SurveyPageData;
    expect(data.step.done).not.toBeNull();
    expect(render(data, path)).toContain('Vielen Dank!');
    expect(await storedLocale('lang-de@example.com')).toBe('de');
  });

  it("the repeat window's refusal is worded in the language, its days counted", async () => {
    const path = `${pagePath()}?lang=es`;
    const res = await post([['overall_rating', '5'], ['customerEmail', 'lang-de@example.com'], ['_section', '2'], ['_intent', 'submit']], path);
    const data = res.body as SurveyPageData;
    expect(data.step.toast?.title).toBe('Cannot Submit Survey');
    const text = render(data, path);
    expect(text).toContain('No se puede enviar la encuesta');
    expect(text).toMatch(/Este correo ya se ha usado para una recompensa aquí\. Podrás volver a hacer la encuesta dentro de \d+ días\./);
  });
});

describe('the JSON API takes `locale`', () => {
  const submit = (body: Record<string, unknown>) =>
    run(() => submitApi({ request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, body), context: context(), params: params() }));

  it('stores it with the response; without one, English', async () => {
    expect((await submit({ responses: { overall_rating: 4 }, customerEmail: 'lang-pt@example.com', locale: 'pt' })).status).toBe(201);
    expect(await storedLocale('lang-pt@example.com')).toBe('pt');
    expect((await submit({ responses: { overall_rating: 4 }, customerEmail: 'lang-none@example.com' })).status).toBe(201);
    expect(await storedLocale('lang-none@example.com')).toBe('en');
  });

  it('refuses a language it does not have with a 400 that names the five', async () => {
    const res = await submit({ responses: { overall_rating: 4 }, customerEmail: 'lang-xx@example.com', locale: 'xx' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('locale must be one of en, es, fr, de, pt');
    expect(await storedLocale('lang-xx@example.com')).toBeUndefined();
  });
});
