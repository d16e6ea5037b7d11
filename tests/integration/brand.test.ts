import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as publicSurveyApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { action as brandAction, loader as brandLoader } from '#app/routes/_owner+/brand.tsx';
import { loader as logoLoader } from '#app/routes/_customer+/brand_.logo.$businessId.ts';
import { loader as flyerLoader } from '#app/routes/_surveys+/survey-materials.$id.flyer.ts';
import { contrastRatio } from '../../modules/branding/index.ts';
import { signedInOwner } from '../setup/factories.ts';
import { BASE, CookieJar, formRequest, getRequest, run } from '../setup/http.ts';
import { rewardingBusiness } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 15, "their own brand": a logo and a colour (contrast-checked) on the public survey, the
// reward email (modules/rewards/reward-email.test.ts) and the flyer; the default look stays.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

function brandForm(jar: CookieJar, fields: Record<string, string>, logo?: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (logo) form.set('logo', new File([new Uint8Array(logo.bytes)], logo.name, { type: logo.type }));
  return new Request(`${BASE}/brand`, { method: 'POST', body: form, headers: { Cookie: jar.header() } });
}

const save = (jar: CookieJar, fields: Record<string, string>, logo?: Parameters<typeof brandForm>[2]) =>
  run(() => brandAction({ request: brandForm(jar, fields, logo), context: app.context(), params: {} }));

/** A wide logo in a colour nothing else on the flyer uses, with a transparent margin. */
async function magentaLogo(): Promise<Uint8Array> {
  return sharp({ create: { width: 900, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: { create: { width: 800, height: 260, channels: 4, background: { r: 255, g: 0, b: 255, alpha: 1 } } }, left: 50, top: 20 }])
    .png()
    .toBuffer();
}

const publicView = async (businessId: string, surveyId: string) =>
  (await run(() => publicSurveyApi({ request: getRequest(`/api/survey/public/${businessId}/${surveyId}`), context: app.context(), params: { businessId, surveyId } }))).body as {
    view: { brand?: unknown };
  };

describe('the brand colour', () => {
  it('refuses a colour too light for white text with a darker suggestion that passes, and saves that one', async () => {
    const owner = await signedInOwner(app, 'Lemon Cafe');
    const light = await save(owner.jar, { brandColor: '#ffd400' });
    expect(light.status).toBe(400);
    const body = light.body as { errors: { brandColor: string[] }; suggestion: string };
    expect(body.errors.brandColor[0]).toMatch(/^#ffd400 is too light for white text on buttons/);
    expect(contrastRatio(body.suggestion, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect((await run(() => brandLoader({ request: getRequest('/brand', owner.jar), context: app.context(), params: {} }))).body).toMatchObject({ color: null });

    expect((await save(owner.jar, { brandColor: body.suggestion })).status).toBe(302);
    expect((await run(() => brandLoader({ request: getRequest('/brand', owner.jar), context: app.context(), params: {} }))).body).toMatchObject({ color: body.suggestion });
    expect((await save(owner.jar, { brandColor: 'chartreuse' })).status).toBe(400);
    // Empty goes back to RewardLoop's look.
    expect((await save(owner.jar, { brandColor: '' })).status).toBe(302);
    expect((await run(() => brandLoader({ request: getRequest('/brand', owner.jar), context: app.context(), params: {} }))).body).toMatchObject({ color: null });
  });

  it('reaches the customer: the public survey carries the colour and the logo address', async () => {
    const shop = await rewardingBusiness(app, 'Brand Bakery');
    expect((await publicView(shop.businessId, shop.surveyId)).view.brand).toEqual({ color: null, logoUrl: null });
    expect((await save(shop.owner.jar, { brandColor: '#1f7a4d' }, { bytes: await magentaLogo(), name: 'logo.png', type: 'image/png' })).status).toBe(302);
    const brand = (await publicView(shop.businessId, shop.surveyId)).view.brand as { color: string; logoUrl: string };
    expect(brand.color).toBe('#1f7a4d');
    expect(brand.logoUrl).toMatch(new RegExp(`^/brand/logo/${shop.businessId}\\?v=[0-9a-f]{8}$`));
  });
});

describe('the logo', () => {
  it('is re-encoded as a PNG of at most 512 px, served publicly, replaced and removed', async () => {
    const owner = await signedInOwner(app, 'Logo Deli');
    expect((await save(owner.jar, { brandColor: '' }, { bytes: await magentaLogo(), name: 'logo.png', type: 'image/png' })).status).toBe(302);
    const served = await logoLoader({ request: getRequest(`/brand/logo/${owner.id}`), context: app.context(), params: { businessId: owner.id } });
    expect(served.status).toBe(200);
    expect(served.headers.get('Content-Type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.format).toBe('png');
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(512);
    expect(meta.hasAlpha).toBe(true);

    const refused = await save(owner.jar, { brandColor: '' }, { bytes: new TextEncoder().encode('<svg onload="alert(1)"/>'), name: 'logo.png', type: 'image/png' });
    expect(refused.status).toBe(415);
    expect((refused.body as { errors: { logo: string[] } }).errors.logo[0]).toBe('Upload the logo as a PNG, JPEG or WebP image.');

    expect((await save(owner.jar, { intent: 'remove-logo' })).status).toBe(302);
    expect((await logoLoader({ request: getRequest(`/brand/logo/${owner.id}`), context: app.context(), params: { businessId: owner.id } })).status).toBe(404);
    expect((await logoLoader({ request: getRequest('/brand/logo/x'), context: app.context(), params: { businessId: '../../etc/passwd' } })).status).toBe(404);
  });

  it('asks to sign in, and changes only the signed-in owner’s brand', async () => {
    const res = await run(() => brandAction({ request: formRequest('/brand', { brandColor: '#1f7a4d' }), context: app.context(), params: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/auth?returnTo=%2Fbrand');
  });
});

describe('the flyer', () => {
  it('prints the band in the brand colour and the logo above the business name', async () => {
    const shop = await rewardingBusiness(app, 'Flyer Cafe');
    const plain = await flyerLoader({ request: getRequest(`/survey-materials/${shop.surveyId}/flyer`, shop.owner.jar), context: app.context(), params: { id: shop.surveyId } });
    await save(shop.owner.jar, { brandColor: '#1f7a4d' }, { bytes: await magentaLogo(), name: 'logo.png', type: 'image/png' });
    const branded = await flyerLoader({ request: getRequest(`/survey-materials/${shop.surveyId}/flyer`, shop.owner.jar), context: app.context(), params: { id: shop.surveyId } });
    const count = async (res: Response, rgb: [number, number, number]) => {
      const { data, info } = await sharp(Buffer.from(await res.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      let n = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2]) n += 1;
      return n;
    };
    const green: [number, number, number] = [0x1f, 0x7a, 0x4d];
    const magenta: [number, number, number] = [255, 0, 255];
    const [plainGreen, plainMagenta] = [await count(plain.clone(), green), await count(plain, magenta)];
    const [brandGreen, brandMagenta] = [await count(branded.clone(), green), await count(branded, magenta)];
    expect(plainGreen).toBe(0);
    expect(plainMagenta).toBe(0);
    expect(brandGreen).toBeGreaterThan(500_000); // the headline band alone is about 2250 x 330 px
    expect(brandMagenta).toBeGreaterThan(50_000);
  });
});
