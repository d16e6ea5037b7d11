import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as putConfig, loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { action as createConfig } from '#app/routes/api+/survey.builder-config.ts';
import { action as builderAction } from '#app/routes/_surveys+/survey-builder.tsx';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { loader as publicApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import type { SurveyPageData } from '#app/customer/state.ts';
import { getTemplate } from '../../modules/surveys/template.ts';
import { templateQuestionList } from '../../modules/surveys/questions.ts';
import { TRANSLATIONS_MESSAGES } from '../../modules/surveys/forms.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { builderFields, connectSquareWithoutLocation, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { query } from '../setup/rewards.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 30, ADR 090: the owner translates their own words (title, questions, options, reward names)
// into each offered language other than the default; customers read them, else the owner's words.

let app: TestApp;
let pages: PageServer;

beforeAll(async () => {
  app = await createTestApp();
  pages = await servePages(app.root);
}, 180_000);
afterAll(async () => {
  await pages?.close();
  await app?.close();
});

let ipCounter = 0;
const ctx = () => {
  ipCounter += 1;
  return app.context(`10.90.${(ipCounter >> 8) & 255}.${ipCounter & 255}`);
};

const template = getTemplate('restaurant_cafe_bakery')!;
const milk = { id: 'q_milk0001', section: 'part2', origin: 'owner', type: 'multiple_choice', text: 'Which milk do you take?', required: false, points: 0, options: ['Oat', 'Dairy', 'Soy'] };
const withMilk = [...templateQuestionList(template), milk];

const spanish = {
  es: {
    title: 'Cuéntanos tu visita',
    questions: { q_milk0001: { text: '¿Qué leche tomas?', options: ['Avena', 'Vaca', ''] }, recommend: { text: '¿Nos recomendarías a tus amigos?' } },
    rewards: { Gold: 'Oro de la casa' },
  },
};

const create = (jar: CookieJar, body: Record<string, unknown>) => run(() => createConfig({ request: jsonRequest('/api/survey/builder-config', surveyBody(body), jar), context: ctx(), params: {} }));
const put = (jar: CookieJar, id: string, body: Record<string, unknown>) => run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody(body), jar, 'PUT'), context: ctx(), params: { id } }));
const read = (jar: CookieJar, id: string) => run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }));
const translationsOf = async (jar: CookieJar, id: string) => ((await read(jar, id)).body as { translations: unknown }).translations;

describe('the config API: translations', () => {
  it('stores them (blanks dropped), reads them back, keeps them when a PUT leaves them out, and a new survey has none', async () => {
    const { jar } = await signedInOwner(app, 'Traduce API');
    const plain = await create(jar, {});
    expect((plain.body as { translations: unknown }).translations).toEqual({});
    const res = await create(jar, { languages: ['en', 'es'], customQuestions: withMilk, translations: spanish });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = (res.body as { id: string }).id;
    const expected = { es: { title: 'Cuéntanos tu visita', questions: { q_milk0001: { text: '¿Qué leche tomas?', options: ['Avena', 'Vaca', ''] }, recommend: { text: '¿Nos recomendarías a tus amigos?' } }, rewards: { Gold: 'Oro de la casa' } } };
    expect(await translationsOf(jar, id)).toEqual(expected);
    expect((await put(jar, id, { languages: ['en', 'es'], customQuestions: withMilk, title: 'Renamed' })).status).toBe(200);
    expect(await translationsOf(jar, id)).toEqual(expected);
    // A PUT replaces them whole.
    expect((await put(jar, id, { languages: ['en', 'es'], customQuestions: withMilk, translations: { es: { title: 'Solo el título' } } })).status).toBe(200);
    expect(await translationsOf(jar, id)).toEqual({ es: { title: 'Solo el título' } });
  });

  it('a language the owner stops offering, or a question they remove, keeps no words on the page or in the API', async () => {
    const { jar } = await signedInOwner(app, 'Traduce Quita');
    const id = ((await create(jar, { languages: ['en', 'es'], customQuestions: withMilk, translations: spanish })).body as { id: string }).id;
    expect((await put(jar, id, { languages: ['en', 'es'], customQuestions: templateQuestionList(template) })).status).toBe(200);
    expect(await translationsOf(jar, id)).toEqual({ es: { title: 'Cuéntanos tu visita', questions: { recommend: { text: '¿Nos recomendarías a tus amigos?' } }, rewards: { Gold: 'Oro de la casa' } } });
    expect((await put(jar, id, { languages: ['en'] })).status).toBe(200);
    expect(await translationsOf(jar, id)).toEqual({});
  });

  const long = (n: number) => 'x'.repeat(n);
  it.each([
    ['not an object', 'es', TRANSLATIONS_MESSAGES.notObject],
    ['a list', [spanish.es], TRANSLATIONS_MESSAGES.notObject],
    ['an unknown language code', { xx: { title: 'Hi' } }, TRANSLATIONS_MESSAGES.unknownLanguage],
    ['a language tag, not a code', { 'es-MX': { title: 'Hola' } }, TRANSLATIONS_MESSAGES.unknownLanguage],
    ['a language not offered', { fr: { title: 'Bonjour' } }, 'French (fr) is not one of the survey\'s languages'],
    ['the default language', { en: { title: 'Hello' } }, 'English (en) is the survey\'s default language'],
    ['an unknown question id', { es: { questions: { q_nothere1: { text: 'Hola' } } } }, 'there is no question q_nothere1 in this survey'],
    ['a question id that is not an id', { es: { questions: { "x' or 1=1": { text: 'Hola' } } } }, TRANSLATIONS_MESSAGES.badQuestionId],
    ['a title too long', { es: { title: long(256) } }, 'Must be at most 255 characters'],
    ['a question text too long', { es: { questions: { recommend: { text: long(201) } } } }, 'Must be at most 200 characters'],
    ['an option too long', { es: { questions: { q_milk0001: { options: [long(81)] } } } }, 'Must be at most 80 characters'],
    ['more options than the question has', { es: { questions: { q_milk0001: { options: ['a', 'b', 'c', 'd'] } } } }, 'has 3 options, not 4'],
    ['options on a question without options', { es: { questions: { recommend: { options: ['Sí', 'No'] } } } }, 'has no options to translate'],
    ['a reward name too long', { es: { rewards: { Gold: long(41) } } }, 'Must be at most 40 characters'],
    ['an unknown tier', { es: { rewards: { Platinum: 'Platino' } } }, 'rewards takes Bronze, Silver and Gold only'],
    ['an unknown key', { es: { description: 'Hola' } }, TRANSLATIONS_MESSAGES.unknownKey],
    ['a number as text', { es: { title: 5 } }, TRANSLATIONS_MESSAGES.notText],
  ])('refuses %s with a 400 that says why, and keeps what was stored', async (_label, translations, message) => {
    const { jar } = await signedInOwner(app, 'Traduce Mal');
    const id = ((await create(jar, { languages: ['en', 'es'], customQuestions: withMilk, translations: spanish })).body as { id: string }).id;
    const res = await put(jar, id, { languages: ['en', 'es'], customQuestions: withMilk, translations });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect(((await translationsOf(jar, id)) as { es: { title: string } }).es.title).toBe('Cuéntanos tu visita');
    // The same refusal on create, storing nothing.
    expect((await create(jar, { languages: ['en', 'es'], customQuestions: withMilk, translations })).status).toBe(400);
  });

  it('a PUT that leaves languages out is checked against the stored languages', async () => {
    const { jar } = await signedInOwner(app, 'Traduce Guardado');
    const id = ((await create(jar, { languages: ['de', 'en'] })).body as { id: string }).id;
    const { languages: _dropped, ...body } = surveyBody({ translations: { en: { title: 'Hello' } } }) as Record<string, unknown>;
    const ok = await run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, body, jar, 'PUT'), context: ctx(), params: { id } }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const refused = await run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, { ...body, translations: { es: { title: 'Hola' } } }, jar, 'PUT'), context: ctx(), params: { id } }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Spanish (es) is not one of the survey's languages");
  });

  it('owner isolation: another owner can neither read nor change a survey’s translations', async () => {
    const a = await signedInOwner(app, 'Traduce Dueño A');
    const b = await signedInOwner(app, 'Traduce Dueño B');
    const id = ((await create(a.jar, { languages: ['en', 'es'], customQuestions: withMilk, translations: spanish })).body as { id: string }).id;
    const peek = await read(b.jar, id);
    expect(peek.status).toBe(404);
    expect(JSON.stringify(peek.body)).not.toContain('Cuéntanos');
    const change = await put(b.jar, id, { languages: ['en', 'es'], customQuestions: withMilk, translations: { es: { title: 'Robado' } } });
    expect(change.status).toBe(404);
    const viaBuilder = await run(() => builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields({ languages: ['en', 'es'], defaultLanguage: 'en', 'translations.es.title': 'Robado' }), b.jar), context: ctx(), params: {} }));
    expect(viaBuilder.status).not.toBe(302);
    expect(((await translationsOf(a.jar, id)) as { es: { title: string } }).es.title).toBe('Cuéntanos tu visita');
    const stored = await query<{ t: string }>(app, 'select translations::text as t from survey_configs where id = ?', [id]);
    expect(stored[0]!.t).not.toContain('Robado');
  });
});

describe('the builder: a card per offered language other than the default (no JavaScript needed)', () => {
  const save = (jar: CookieJar, fields: Record<string, string | string[]>, surveyId?: string) =>
    run(() => builderAction({ request: formRequest(`/survey-builder${surveyId ? `?surveyId=${surveyId}` : ''}`, builderFields(fields), jar), context: ctx(), params: {} }));

  it('a form post stores the typed translations; blanks are not translations', async () => {
    const { jar } = await signedInOwner(app, 'Traduce Form');
    const res = await save(jar, {
      languages: ['en', 'es', 'pt'],
      defaultLanguage: 'en',
      customQuestions: JSON.stringify(withMilk),
      'translations.es.title': 'Cuéntanos',
      'translations.es.questions.q_milk0001.text': '¿Qué leche?',
      'translations.es.questions.q_milk0001.options[0]': 'Avena',
      'translations.es.questions.q_milk0001.options[1]': '',
      'translations.es.questions.q_milk0001.options[2]': 'Soja',
      'translations.es.rewards.Bronze': '',
      'translations.pt.title': '',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(res.headers.get('Location')!)![1]!;
    expect(await translationsOf(jar, id)).toEqual({ es: { title: 'Cuéntanos', questions: { q_milk0001: { text: '¿Qué leche?', options: ['Avena', '', 'Soja'] } } } });
  });

  it.each([
    ['a language not ticked', { languages: ['en', 'fr'], defaultLanguage: 'en', 'translations.es.title': 'Hola', 'translations.fr.title': 'Bonjour' }],
    ['the default language', { languages: ['en', 'es', 'fr'], defaultLanguage: 'es', 'translations.es.title': 'Hola', 'translations.fr.title': 'Bonjour' }],
  ])('keeps only the ticked languages’ words: %s posts its hidden card, which is dropped', async (_label, fields) => {
    const { jar } = await signedInOwner(app, 'Traduce Oculto');
    const res = await save(jar, fields as Record<string, string | string[]>);
    expect(res.status, JSON.stringify(res.body)).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(res.headers.get('Location')!)![1]!;
    expect(await translationsOf(jar, id)).toEqual({ fr: { title: 'Bonjour' } });
    const stored = await query<{ t: string }>(app, 'select translations::text as t from survey_configs where id = ?', [id]);
    expect(stored[0]!.t).not.toContain('Hola');
  });

  it.each([
    ['an unknown question', { languages: ['en', 'es'], defaultLanguage: 'en', 'translations.es.questions.q_gone0001.text': 'Hola' }, 'there is no question q_gone0001', 'translations.es.questions.q_gone0001'],
    ['a text too long', { languages: ['en', 'es'], defaultLanguage: 'en', 'translations.es.questions.recommend.text': 'x'.repeat(201) }, 'Must be at most 200 characters', 'translations.es.questions.recommend.text'],
  ])('refuses %s inline, on that field, storing nothing', async (_label, fields, message, path) => {
    const { jar } = await signedInOwner(app, 'Traduce Form Mal');
    const res = await save(jar, fields as Record<string, string | string[]>);
    expect(res.status).toBe(400);
    const body = res.body as { result: { error: Record<string, string[]> } };
    expect(body.result.error[path]?.join(' ')).toContain(message);
  });

  it('the builder page renders a card per language with the stored words, as plain fields; the stylesheet shows only the offered non-default ones', async () => {
    const { jar } = await signedInOwner(app, 'Traduce Página');
    const id = ((await create(jar, { languages: ['en', 'es', 'de'], customQuestions: withMilk, translations: spanish })).body as { id: string }).id;
    const res = await fetch(`${pages.base}/survey-builder?surveyId=${id}`, { headers: { Cookie: jar.header(), Accept: 'text/html', 'X-Forwarded-For': '10.90.200.1' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="translations"');
    expect(html).toMatch(/Español<\/span> \(Spanish\)/);
    expect(html).toMatch(/Deutsch<\/span> \(German\)/);
    // Every language's card is in the page (ticking a language shows it at once, ADR 090); the
    // browser test (languages.e2e.ts) checks which ones are shown.
    expect([...html.matchAll(/data-translation-lang="(\w+)"/g)].map((m) => m[1])).toEqual(['en', 'es', 'fr', 'de', 'pt']);
    const input = (name: string) => [...html.matchAll(/<input [^>]*>/g)].map((m) => m[0]).find((i) => i.includes(`name="${name}"`)) ?? '';
    expect(input('translations.es.title')).toContain('value="Cuéntanos tu visita"');
    expect(input('translations.es.questions.q_milk0001.options[1]')).toContain('value="Vaca"');
    expect(input('translations.es.rewards.Gold')).toContain('value="Oro de la casa"');
    expect(input('translations.de.questions.q_milk0001.text')).not.toBe('');
    expect(input('translations.en.title')).toContain('value=""');
  });
});

describe('the customer page reads the owner’s translation, else the catalog, else the owner’s words', () => {
  let shop: { businessId: string; surveyId: string };
  beforeAll(async () => {
    const owner = await signedInOwner(app, 'Café Traducido');
    const id = ((await create(owner.jar, { languages: ['en', 'es', 'fr'], customQuestions: withMilk, translations: spanish })).body as { id: string }).id;
    await startTrialForTest(app, { jar: owner.jar });
    await publishForTest(app, owner.jar, id);
    await connectSquareWithoutLocation(app, owner.id);
    shop = { businessId: owner.id, surveyId: id };
  }, 120_000);

  const page = async (query: string) => {
    const res = await fetch(`${pages.base}/survey/public/${shop.businessId}/${shop.surveyId}${query}`, { headers: { Accept: 'text/html', 'X-Forwarded-For': `10.90.201.${++ipCounter & 255}` } });
    return res.text();
  };

  it('in Spanish: the owner’s title, question, options (values unchanged) and reward name; the catalog for the rest', async () => {
    const html = await page('?lang=es');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Cuéntanos tu visita');
    // (The page data carries the owner's own list for the island: look at what is rendered.)
    expect(html).toContain('>¿Nos recomendarías a tus amigos?<');
    expect(html).not.toContain('>Would you recommend us to a friend?<');
    // Section 2 is not rendered on the first page; the data carries the translated template for the island.
    expect(html).toContain('Oro de la casa');
    expect(html).not.toMatch(/>Gold</);
  });

  it('section 2 in Spanish without JavaScript: the owner’s question and option labels, the posted values the owner’s options; a blank option is the owner’s word', async () => {
    const res = await fetch(`${pages.base}/survey/public/${shop.businessId}/${shop.surveyId}?lang=es`, {
      method: 'POST',
      headers: { Accept: 'text/html', Origin: pages.base, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': `10.90.202.${++ipCounter & 255}` },
      body: new URLSearchParams([['overall_rating', '5'], ['_section', '0'], ['_intent', 'next']]).toString(),
    });
    const html = await res.text();
    expect(res.status, html.slice(0, 500)).toBe(200);
    expect(html).toContain('>¿Qué leche tomas?<');
    expect(html).not.toContain('>Which milk do you take?<');
    const radios = [...html.matchAll(/<input [^>]*name="q_milk0001"[^>]*>/g)].map((m) => /value="([^"]+)"/.exec(m[0])?.[1]);
    expect(radios).toEqual(['Oat', 'Dairy', 'Soy']);
    expect(html).toContain('Avena');
    expect(html).toContain('Vaca');
    expect(html).toMatch(/>Soy</);

    // A Spanish customer's answer is stored as the owner's option.
    const posted = await run(() =>
      publicPage.action({
        request: formRequest(`/survey/public/${shop.businessId}/${shop.surveyId}?lang=es`, [['overall_rating', '5'], ['q_milk0001', 'Oat'], ['customerEmail', 'leche@example.com'], ['_section', '2'], ['_intent', 'submit']]),
        context: ctx(),
        params: shop,
      }),
    );
    expect((posted.body as SurveyPageData).step.done, JSON.stringify((posted.body as SurveyPageData).step.toast)).toBeTruthy();
    const stored = await query<{ milk: string; locale: string }>(app, `select responses->>'q_milk0001' as milk, locale from survey_responses where customer_email = 'leche@example.com'`);
    expect(stored[0]).toEqual({ milk: 'Oat', locale: 'es' });
  });

  it('without JavaScript, a refusal that quotes a required question quotes the owner’s translation', async () => {
    const owner = await signedInOwner(app, 'Café Pan');
    const bread = { id: 'q_pan00001', section: 'part1', origin: 'owner', type: 'yes_no', text: 'Do you want fresh bread?', required: true, points: 0 };
    const id = ((await create(owner.jar, { languages: ['en', 'es'], customQuestions: [...templateQuestionList(template), bread], translations: { es: { questions: { q_pan00001: { text: '¿Quieres pan recién hecho?' } } } } })).body as { id: string }).id;
    await startTrialForTest(app, { jar: owner.jar });
    await publishForTest(app, owner.jar, id);
    await connectSquareWithoutLocation(app, owner.id);
    const res = await run(() =>
      publicPage.action({
        request: formRequest(`/survey/public/${owner.id}/${id}?lang=es`, [['overall_rating', '5'], ['customerEmail', 'pan@example.com'], ['_section', '2'], ['_intent', 'submit']]),
        context: ctx(),
        params: { businessId: owner.id, surveyId: id },
      }),
    );
    const { step } = res.body as SurveyPageData;
    expect(step.toast?.description).toContain('¿Quieres pan recién hecho?');
    expect(step.toast?.description).not.toContain('Do you want fresh bread?');
  });

  it('in French (offered, not translated): the owner’s words for their question, the catalog for the template’s; in English: the owner’s words', async () => {
    const fr = await page('?lang=fr');
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('Spring feedback');
    expect(fr).not.toContain('Cuéntanos');
    const en = await page('?lang=en');
    expect(en).toContain('Spring feedback');
    expect(en).toContain('>Gold<');
  });

  it('the public survey API carries the translations', async () => {
    const res = await run(() => publicApi({ request: getRequest(`/api/survey/public/${shop.businessId}/${shop.surveyId}`), context: ctx(), params: shop }));
    expect((res.body as { config: { translations: unknown } }).config.translations).toMatchObject({ es: { title: 'Cuéntanos tu visita' } });
  });
});
