import { describe, expect, it } from 'vitest';
import { allQuestions, getTemplate, PLATFORM_LABELS } from '../surveys/index.ts';
import { REJECTION_CODES } from '../verification/port.ts';
import { englishTranslator, fromAcceptLanguage, LOCALE_COOKIE, LOCALES, localeCookie, offeredLocale, pickLocale, rejectionMessage, REJECTION_MESSAGES, surveyLocales } from './index.ts';
import { CATALOGS, messagesFor } from './server.ts';
import { createTranslator, i18nextTranslator } from './translator.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const keyOf = (key: string) => key.replace(/_(one|other)$/, '');

describe('the catalogs (ADR 084)', () => {
  const allKeys = new Set(LOCALES.flatMap((l) => Object.keys(CATALOGS[l])));

  it.each(LOCALES)('%s has every key any catalog has, and no other', (locale) => {
    const keys = new Set(Object.keys(CATALOGS[locale]));
    expect([...allKeys].filter((k) => !keys.has(k))).toEqual([]);
    expect(keys.size).toBe(allKeys.size);
  });

  it.each(LOCALES)('%s words every key, keeping its placeholders', (locale) => {
    for (const [key, value] of Object.entries(CATALOGS[locale])) {
      expect(value.trim(), key).not.toBe('');
      expect(placeholders(value), `${locale}: ${key}`).toEqual(placeholders(keyOf(key)));
    }
  });

  it('English is its own key, but for plural forms and the demo wording kept from before', () => {
    const differing = Object.entries(CATALOGS.en).filter(([k, v]) => k !== v).map(([k]) => k);
    expect(differing.every((k) => /_(one|other)$/.test(k) || k.startsWith('Your {{value}} gift card would be sent'))).toBe(true);
  });

  it('every text of the built-in template is in the catalog (so it is translated)', () => {
    const template = getTemplate('restaurant_cafe_bakery')!;
    const en = CATALOGS.en as Record<string, string>;
    const texts = [
      ...template.sections.flatMap((s) => [s.title, s.description ?? '']),
      ...allQuestions(template).flatMap((q) => {
        const label = q.platform ? PLATFORM_LABELS[q.platform] : null;
        const generic = (t: string) => (label ? t.split(label).join('{{platform}}') : t);
        return [q.text, q.description ?? '', ...(q.options ?? []), ...(q.fields ?? []).map((f) => f.text)].filter(Boolean).map(generic);
      }),
    ].filter(Boolean);
    expect(texts.filter((t) => !(t in en))).toEqual([]);
  });
});

describe('the translators', () => {
  const sample = { count: 1, n: 2, total: 3, business: 'Crumb & Co', platform: 'Google', tier: 'Gold', value: '$5', email: 'a@b.co', points: 5, range: '5-7', min: 20, label: 'X', name: 'crumb', question: 'Q?', why: 'Blurry. ' };

  it("English without i18next says exactly what i18next's English says, for every key (server and island agree)", () => {
    const plain = englishTranslator(messagesFor('en'));
    const library = i18nextTranslator('en', messagesFor('en'));
    for (const key of new Set(Object.keys(CATALOGS.en).map(keyOf))) {
      for (const count of [0, 1, 2, 17]) expect(plain.t(key, { ...sample, count }), key).toBe(library.t(key, { ...sample, count }));
    }
    expect(plain.t('An owner question {{x}}?')).toBe('An owner question {{x}}?');
  });

  it('a text no catalog has (the owner’s own words) is said as written in every language', () => {
    for (const locale of LOCALES) expect(createTranslator(locale, messagesFor(locale)).t('Best croissant in town: yes/no?')).toBe('Best croissant in town: yes/no?');
  });

  it('plurals, money and numbers follow the language (Intl)', () => {
    const es = createTranslator('es', messagesFor('es'));
    const fr = createTranslator('fr', messagesFor('fr'));
    const en = createTranslator('en', messagesFor('en'));
    expect([en.t('{{count}} points', { count: 1 }), en.t('{{count}} points', { count: 2 })]).toEqual(['1 point', '2 points']);
    expect([es.t('{{count}} points', { count: 1 }), es.t('{{count}} points', { count: 11 })]).toEqual(['1 punto', '11 puntos']);
    expect(fr.t('{{count}} points', { count: 0 })).toBe('0 point');
    expect([en.money(500), en.money(0, false), en.money(1500)]).toEqual(['$5', '$0.00', '$15']);
    expect(es.money(800)).toMatch(/^8\s\$$/);
    expect(createTranslator('de', messagesFor('de')).number(1234)).toBe('1.234');
  });

  it('the page sends the browser one language, English only its plural forms', () => {
    expect(Object.keys(messagesFor('en')).every((k) => /_(one|other)$/.test(k) || k.startsWith('Your {{value}} gift card would be sent'))).toBe(true);
    expect(Object.keys(messagesFor('pt')).length).toBeGreaterThan(100);
  });
});

describe('the customer’s language: ?lang=, then the cookie, then Accept-Language, else English', () => {
  const cookie = (l: string) => `rl_client=abc; ${LOCALE_COOKIE}=${l}`;

  it('takes them in that order', () => {
    expect(pickLocale({ query: 'es', cookie: cookie('fr'), acceptLanguage: 'de' })).toEqual({ locale: 'es', source: 'query' });
    expect(pickLocale({ query: null, cookie: cookie('fr'), acceptLanguage: 'de' })).toEqual({ locale: 'fr', source: 'cookie' });
    expect(pickLocale({ cookie: 'rl_client=abc', acceptLanguage: 'de-DE,de;q=0.9' })).toEqual({ locale: 'de', source: 'header' });
    expect(pickLocale({})).toEqual({ locale: 'en', source: 'default' });
  });

  it('skips what is not one of ours instead of failing', () => {
    expect(pickLocale({ query: 'xx', cookie: cookie('<script>'), acceptLanguage: 'ja,zh;q=0.8' })).toEqual({ locale: 'en', source: 'default' });
    expect(pickLocale({ query: 'PT-br' }).locale).toBe('pt');
  });

  it('reads Accept-Language by its q-values', () => {
    expect(fromAcceptLanguage('en;q=0.5, fr-CA;q=0.8, ja')).toBe('fr');
    expect(fromAcceptLanguage('es;q=0, pt')).toBe('pt');
    expect(fromAcceptLanguage('*')).toBeNull();
  });

  it('remembers a chosen language in a cookie', () => {
    expect(localeCookie('de')).toBe(`${LOCALE_COOKIE}=de; Path=/; Max-Age=31536000; SameSite=Lax`);
  });
});

describe('a survey’s languages (ADR 086): only an offered language counts, else the survey’s first', () => {
  const cookie = (v: string) => `${LOCALE_COOKIE}=${v}`;
  const offered = ['es', 'en'] as const;

  it('takes ?lang=, the cookie and Accept-Language only when the survey offers them', () => {
    expect(pickLocale({ query: 'en', offered })).toEqual({ locale: 'en', source: 'query' });
    expect(pickLocale({ query: 'fr', cookie: cookie('en'), offered })).toEqual({ locale: 'en', source: 'cookie' });
    expect(pickLocale({ query: 'fr', cookie: cookie('de'), acceptLanguage: 'de,fr;q=0.9,en;q=0.3', offered })).toEqual({ locale: 'en', source: 'header' });
    expect(pickLocale({ query: 'fr', cookie: cookie('de'), acceptLanguage: 'pt', offered })).toEqual({ locale: 'es', source: 'default' });
    expect(pickLocale({ offered: ['de'] })).toEqual({ locale: 'de', source: 'default' });
  });

  it('reads stored lists defensively and never stores a language the survey does not offer', () => {
    expect(surveyLocales(['pt', 'xx', 'pt', 'en'])).toEqual(['pt', 'en']);
    expect(surveyLocales([])).toEqual(['en']);
    expect(surveyLocales(null)).toEqual(['en']);
    expect(offeredLocale('fr', ['es', 'en'])).toBe('es');
    expect(offeredLocale('en-GB', ['es', 'en'])).toBe('en');
    expect(offeredLocale(null, ['de'])).toBe('de');
    expect(offeredLocale('es', [])).toBe('en');
  });
});

describe('screenshot rejections (ADR 090)', () => {
  it('every rejection code has a sentence, and every sentence is in the catalogs', () => {
    expect(Object.keys(REJECTION_MESSAGES).sort()).toEqual([...REJECTION_CODES].sort());
    for (const key of Object.values(REJECTION_MESSAGES)) expect(CATALOGS.en, key).toHaveProperty([key]);
  });

  it('English keeps the verifier’s words; another language says the code’s sentence with the platform; an unknown code the generic line', () => {
    const en = createTranslator('en', messagesFor('en'));
    const pt = createTranslator('pt', messagesFor('pt'));
    expect(rejectionMessage(en, 'not_following', 'The profile shows a Follow button.', 'Instagram')).toBe('The profile shows a Follow button.');
    expect(rejectionMessage(pt, 'not_following', 'The profile shows a Follow button.', 'Instagram')).toBe('Esta captura não mostra que você nos segue no Instagram. Envie uma captura do nosso perfil mostrando que você nos segue.');
    expect(rejectionMessage(pt, 'something_new', 'x', 'Google')).toBe(pt.t('Please upload a different screenshot.'));
    expect(rejectionMessage(en, null, null, 'Google')).toBe('Please upload a different screenshot.');
  });
});
