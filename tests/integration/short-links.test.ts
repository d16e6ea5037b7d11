import { createCanvas, loadImage } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261127140000SurveyShortCodes } from '../../migrations/Migration20261127140000SurveyShortCodes.ts';
import * as shortLinkRoute from '#app/routes/_customer+/s.$code.tsx';
import { loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { loader as listConfigs } from '#app/routes/api+/survey.configs.ts';
import { loader as flyerLoader } from '#app/routes/_surveys+/survey-materials.$id.flyer.ts';
import { loader as qrLoader } from '#app/routes/_surveys+/survey-materials.$id.qr.ts';
import { action as manageAction, loader as manageLoader } from '#app/routes/_surveys+/survey-management.tsx';
import { loader as previewLoader } from '#app/routes/_surveys+/survey-preview.tsx';
import { loader as publishedLoader } from '#app/routes/_surveys+/survey-published.$id.tsx';
import { surveyConfigApiSchema } from '../../modules/surveys/forms.ts';
import { surveyTierReport } from '../../modules/scoring/index.ts';
import { createSurveys } from '../../modules/surveys/server.ts';
import { isShortCode, newShortCode, SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from '../../modules/surveys/index.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { connectSquareForTest, createSurvey, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { BASE, formRequest, getRequest, run, type CookieJar } from '../setup/http.ts';
import { query } from '../setup/rewards.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 27, "short links in sight and in print" (ADR 082): /s/{code} for the share link, the QR code
// and the flyer, redirecting to the public path; no UUID on the pages an owner or a customer reads.

let app: TestApp;
const ctx = () => app.context();
// The pages as a browser gets them: the Express pipeline in front of Vite's SSR build of app/ (as in owner-loop.test.ts).
let pages: PageServer;
let base: string;

type Owner = { jar: CookieJar; id: string; email: string };
type Survey = { id: string; businessId: string; shortCode: string };

/** An owner whose survey customers can open: trial, published, Square connected. */
let live: { owner: Owner; survey: Survey };

beforeAll(async () => {
  app = await createTestApp();
  pages = await servePages(app.root);
  base = pages.base;
  const owner = await signedInOwner(app, 'Short Link Cafe');
  const survey = { ...(await createSurvey(app, owner.jar, { title: 'Tell us about your visit' })), title: 'Tell us about your visit' };
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, survey.id);
  await connectSquareForTest(app, owner.id);
  live = { owner, survey };
}, 180_000);
afterAll(async () => {
  await pages?.close();
  await app?.close();
});

let ipCounter = 0;
/** A request as a browser sends it, from its own address (per-IP limits stay out of the way); redirects are not followed. */
async function page(path: string, jar?: CookieJar) {
  ipCounter += 1;
  const headers: Record<string, string> = { 'X-Forwarded-For': `10.82.${(ipCounter >> 8) & 255}.${ipCounter & 255}`, Accept: 'text/html' };
  if (jar) headers.Cookie = jar.header();
  const res = await fetch(base + path, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The text a reader sees: scripts, comments and tags dropped, usual entities decoded, whitespace folded. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const shortUrl = (code: string) => `${BASE}/s/${code}`;

/** The QR code in a PNG, decoded (scaled first for the 2550 x 3300 flyer). */
async function decodeQr(png: Buffer, scale = 1): Promise<string | null> {
  const img = await loadImage(png);
  const width = Math.round(img.width * scale);
  const height = Math.round(img.height * scale);
  const canvas = createCanvas(width, height);
  const c = canvas.getContext('2d');
  c.fillStyle = '#ffffff';
  c.fillRect(0, 0, width, height);
  c.drawImage(img, 0, 0, width, height);
  return jsQR(new Uint8ClampedArray(c.getImageData(0, 0, width, height).data), width, height)?.data ?? null;
}

/** A route's PNG body, read through the loader as the server would send it. */
async function png(loader: typeof qrLoader, path: string, jar: CookieJar, id: string): Promise<{ status: number; body: Buffer }> {
  try {
    const res = (await loader({ request: getRequest(path, jar), context: ctx(), params: { id } })) as Response;
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: Buffer.alloc(0) };
    throw error;
  }
}

const openShortLink = (code: string, search = '') =>
  run(() => shortLinkRoute.loader({ request: getRequest(`/s/${code}${search}`), context: ctx(), params: { code } }));

describe('a survey gets a short code', () => {
  it('when it is created (builder, API, duplicate): well formed and unique', async () => {
    const owner = await signedInOwner(app, 'Many Surveys Bakery');
    const made: Survey[] = [];
    for (let i = 0; i < 12; i++) made.push(await createSurvey(app, owner.jar, { title: `Survey ${i}` }));
    const copy = await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'duplicate', surveyId: made[0]!.id }, owner.jar), context: ctx(), params: {} }));
    expect(copy.status).toBeLessThan(400);
    const rows = await query<{ id: string; short_code: string }>(app, 'select id, short_code from survey_configs where business_id = ?', [owner.id]);
    expect(rows).toHaveLength(13);
    for (const row of rows) expect(isShortCode(row.short_code), row.short_code).toBe(true);
    expect(new Set(rows.map((r) => r.short_code)).size).toBe(13);
    expect(made.map((s) => s.shortCode).sort()).toEqual(rows.filter((r) => made.some((s) => s.id === r.id)).map((r) => r.short_code).sort());
  });

  it('a code already taken is drawn again (the unique constraint decides, whichever instance took it)', async () => {
    const owner = await signedInOwner(app, 'Collision Diner');
    const taken = live.survey.shortCode;
    const fresh = newShortCode();
    const draws = [taken, taken, fresh];
    const surveys = createSurveys({ em: app.root.db.orm.em.fork(), rules: { tierReport: surveyTierReport, hostedVisionAvailable: false }, newShortCode: () => draws.shift()! });
    const saved = await surveys.save(owner.id, surveyConfigApiSchema.parse(surveyBody({ title: 'Drawn twice' })));
    if (saved.status !== 'saved') throw new Error(saved.refusal.message);
    const created = saved.survey;
    expect(created.shortCode).toBe(fresh);
    expect(draws).toEqual([]);
    expect(await query(app, 'select short_code from survey_configs where id = ?', [created.id])).toEqual([{ short_code: fresh }]);
    // The live survey still has its own code.
    expect(await query(app, 'select count(*)::int as n from survey_configs where short_code = ?', [taken])).toEqual([{ n: 1 }]);
  });

  it('the database makes one for an insert that brings none (an older instance during a deploy), from the same alphabet', async () => {
    const owner = await signedInOwner(app, 'Old Release Cafe');
    await app.root.db.orm.em
      .fork()
      .getConnection()
      .execute(`insert into survey_configs (business_id, bronze_reward_value, silver_reward_value, gold_reward_value) values (?, 100, 300, 800), (?, 100, 300, 800)`, [owner.id, owner.id]);
    const rows = await query<{ short_code: string }>(app, 'select short_code from survey_configs where business_id = ?', [owner.id]);
    expect(rows).toHaveLength(2);
    for (const { short_code } of rows) {
      expect(short_code).toHaveLength(SHORT_CODE_LENGTH);
      expect([...short_code].every((ch) => SHORT_CODE_ALPHABET.includes(ch)), short_code).toBe(true);
    }
    expect(rows[0]!.short_code).not.toBe(rows[1]!.short_code);
    await expect(
      app.root.db.orm.em.fork().getConnection().execute(`update survey_configs set short_code = ? where business_id = ?`, [live.survey.shortCode, owner.id]),
    ).rejects.toThrow(/survey_configs_short_code_unique/);
  });

  it('the migration backfills every existing survey with its own code', async () => {
    const owner = await signedInOwner(app, 'Before Short Links Cafe');
    for (let i = 0; i < 5; i++) await createSurvey(app, owner.jar);
    const conn = app.root.db.orm.em.fork().getConnection();
    const before = await query<{ n: number }>(app, 'select count(*)::int as n from survey_configs');
    // Back to the schema before the migration, with surveys in it, then the migration runs.
    const migration = new Migration20261127140000SurveyShortCodes(app.root.db.orm.em.getDriver(), app.root.db.orm.config);
    await migration.down();
    for (const sql of migration.getQueries()) await conn.execute(String(sql));
    migration.reset();
    await migration.up();
    for (const sql of migration.getQueries()) await conn.execute(String(sql));
    const rows = await query<{ short_code: string }>(app, 'select short_code from survey_configs');
    expect(rows).toHaveLength(before[0]!.n);
    for (const { short_code } of rows) expect(isShortCode(short_code), short_code).toBe(true);
    expect(new Set(rows.map((r) => r.short_code)).size).toBe(rows.length);
    // The live survey's code changed with the backfill: read it again for the tests below.
    const [again] = await query<{ short_code: string }>(app, 'select short_code from survey_configs where id = ?', [live.survey.id]);
    live.survey.shortCode = again!.short_code;
  });
});

describe('/s/{code}', () => {
  it('is a 302 to the public path, keeping the query string; a code in capitals works too', async () => {
    const { survey, owner } = live;
    const target = `/survey/public/${owner.id}/${survey.id}`;
    const plain = await openShortLink(survey.shortCode);
    expect(plain.status).toBe(302);
    expect(plain.headers.get('Location')).toBe(target);
    const withQuery = await openShortLink(survey.shortCode, '?utm_source=flyer&bypass_square=true');
    expect(withQuery.headers.get('Location')).toBe(`${target}?utm_source=flyer&bypass_square=true`);
    expect((await openShortLink(survey.shortCode.toUpperCase())).headers.get('Location')).toBe(target);
  });

  it('over HTTP: the redirect, then the customer page of the live survey', async () => {
    const res = await page(`/s/${live.survey.shortCode}`);
    expect(res.status).toBe(302);
    const location = res.headers.get('Location')!;
    expect(location).toBe(`/survey/public/${live.owner.id}/${live.survey.id}`);
    const customer = await page(location);
    expect(customer.status).toBe(200);
    expect(visibleText(customer.html)).toContain('Tell us about your visit');
  });

  it('an unknown or malformed code is the customers\' "Survey Not Found" page with a 404, never a 500', async () => {
    const unknown = newShortCode();
    for (const code of [unknown, 'abc', 'abcdefgh0', 'ABCDEFGHI', '00000000-0000-4000-8000-000000000000', "x'%20or%20'1'%3D'1", 'k'.repeat(3000), '%E2%82%AC%E2%82%AC%E2%82%AC']) {
      const res = await page(`/s/${code}`);
      expect(res.status, code).toBe(404);
      expect(visibleText(res.html), code).toContain('Survey Not Found');
      expect(visibleText(res.html), code).toContain('Please ask the staff for a current link or QR code.');
    }
    const direct = await openShortLink(unknown);
    expect(direct.status).toBe(404);
    expect(direct.body).toMatchObject({ view: null });
  });

  it('a survey that is not live behaves as its public path: the redirect, then "Survey Not Found"', async () => {
    const owner = await signedInOwner(app, 'Draft Only Cafe');
    const draft = await createSurvey(app, owner.jar);
    const res = await page(`/s/${draft.shortCode}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/survey/public/${owner.id}/${draft.id}`);
    const target = await page(res.headers.get('Location')!);
    expect(target.status).toBe(404);
    expect(visibleText(target.html)).toContain('Survey Not Found');
    // The owner's preview through the short link opens it (bypass_square travels with the redirect).
    const preview = await page(`/s/${draft.shortCode}?bypass_square=true`, owner.jar);
    expect(preview.headers.get('Location')).toBe(`/survey/public/${owner.id}/${draft.id}?bypass_square=true`);
    expect((await page(preview.headers.get('Location')!, owner.jar)).status).toBe(200);
  });

  it('a second instance on the same database follows the codes the first made', async () => {
    const second = await app.secondInstance();
    try {
      const res = await run(() =>
        shortLinkRoute.loader({ request: getRequest(`/s/${live.survey.shortCode}`), context: second.context(), params: { code: live.survey.shortCode } }),
      );
      expect(res.headers.get('Location')).toBe(`/survey/public/${live.owner.id}/${live.survey.id}`);
    } finally {
      await second.close();
    }
  });
});

describe('the short link in sight and in print', () => {
  it('the published page shows the short link, QR code and preview through it, and no UUID', async () => {
    const { owner, survey } = live;
    const data = await run(() => publishedLoader({ request: getRequest(`/survey-published/${survey.id}`, owner.jar), context: ctx(), params: { id: survey.id } }));
    expect(data.body).toMatchObject({ publicUrl: shortUrl(survey.shortCode), previewUrl: `${shortUrl(survey.shortCode)}?bypass_square=true`, availability: 'Available' });
    const res = await page(`/survey-published/${survey.id}`, owner.jar);
    expect(res.status).toBe(200);
    const text = visibleText(res.html);
    // The share field holds the short link, whole (a read-only field that wraps on a phone).
    expect(res.html).toMatch(new RegExp(`<textarea id="[^"]+" readOnly="" rows="2"[^>]*>${shortUrl(survey.shortCode).replace(/[.?]/g, '\\$&')}</textarea>`, 'i'));
    expect(text).not.toMatch(UUID);
    expect(res.html).not.toContain('/survey/public/');
    // The QR code on the page is the short link too.
    const svg = (data.body as { qrSvg: string }).qrSvg;
    expect(await decodeQr(Buffer.from(svg))).toBe(shortUrl(survey.shortCode));
  });

  it('the management list and the preview page: the short link, no UUID', async () => {
    const { owner, survey } = live;
    const res = await page('/survey-management', owner.jar);
    expect(res.status).toBe(200);
    expect(res.html).toContain(shortUrl(survey.shortCode));
    expect(res.html).not.toContain('/survey/public/');
    expect(visibleText(res.html)).not.toMatch(UUID);
    const list = await run(() => manageLoader({ request: getRequest('/survey-management', owner.jar), context: ctx(), params: {} }));
    expect((list.body as { surveys: Array<{ publicUrl: string }> }).surveys.map((s) => s.publicUrl)).toEqual([shortUrl(survey.shortCode)]);
    const preview = await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${survey.id}`, owner.jar), context: ctx(), params: {} }));
    expect((preview.body as { previewUrl: string }).previewUrl).toBe(`${shortUrl(survey.shortCode)}?bypass_square=true`);
  });

  it("the owner's other pages about the survey show no UUID either (issue 27: the analytics page was headed by one)", async () => {
    const { owner, survey } = live;
    for (const path of ['/dashboard', '/survey-analytics', `/survey-analytics/${survey.id}`, '/rewards', `/survey-builder?surveyId=${survey.id}`]) {
      const res = await page(path, owner.jar);
      expect(res.status, path).toBe(200);
      expect(visibleText(res.html), path).not.toMatch(UUID);
    }
  });

  it('the QR code download and the flyer encode the absolute short link', async () => {
    const { owner, survey } = live;
    const qr = await png(qrLoader, `/survey-materials/${survey.id}/qr`, owner.jar, survey.id);
    expect(qr.status).toBe(200);
    expect(await decodeQr(qr.body)).toBe(shortUrl(survey.shortCode));
    const flyer = await png(flyerLoader, `/survey-materials/${survey.id}/flyer`, owner.jar, survey.id);
    expect(flyer.status).toBe(200);
    expect(await decodeQr(flyer.body, 0.5)).toBe(shortUrl(survey.shortCode));
  }, 60_000);

  it("another owner never sees a survey's code through the owner routes", async () => {
    const { survey } = live;
    const bob = await signedInOwner(app, 'Nosy Bob Bakery');
    await createSurvey(app, bob.jar);
    const id = survey.id;
    const answers = [
      await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, bob.jar), context: ctx(), params: { id } })),
      await run(() => listConfigs({ request: getRequest('/api/survey/configs', bob.jar), context: ctx(), params: {} })),
      await run(() => publishedLoader({ request: getRequest(`/survey-published/${id}`, bob.jar), context: ctx(), params: { id } })),
      await run(() => manageLoader({ request: getRequest('/survey-management', bob.jar), context: ctx(), params: {} })),
      await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${id}`, bob.jar), context: ctx(), params: {} })),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 200, 404, 200, 404]);
    for (const a of answers) expect(JSON.stringify(a.body)).not.toContain(survey.shortCode);
    expect((await png(qrLoader, `/survey-materials/${id}/qr`, bob.jar, id)).status).toBe(404);
    expect((await png(flyerLoader, `/survey-materials/${id}/flyer`, bob.jar, id)).status).toBe(404);
    for (const path of ['/survey-management', `/survey-published/${id}`, '/survey-published', '/dashboard', `/survey-analytics/${id}`, '/survey-analytics']) {
      const res = await page(path, bob.jar);
      expect(res.status, path).toBeLessThan(500);
      expect(res.html, path).not.toContain(survey.shortCode);
    }
  });
});
