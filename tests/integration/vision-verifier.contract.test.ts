/**
 * VisionScreenshotVerifier (issue 13, ADR 045) against the Chat Completions API, mocked with msw at
 * the network edge: what it sends (the model, the image as a JPEG data URL, a JSON-schema answer,
 * the key), how the judge decides from the model's transcript (exact handles, button fills),
 * and what the customer sees when the service fails or answers nonsense.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VisionScreenshotVerifier, type VisionTranscript } from '../../adapters/verification/VisionScreenshotVerifier.ts';
import { InMemoryVerificationHistory } from '../../modules/verification/history.ts';
import { chatCompletion, GOOGLE_REVIEW_LINES, transcriptLines } from '../mocks/openai.ts';

const BASE = 'https://vision.test/v1';
const KEY = 'sk-test-vision';
const image = readFileSync(path.join(import.meta.dirname, '../fixtures/screenshots/google-review-ana.png'));

type Sent = { authorization: string | null; body: Record<string, unknown> };
const sent: Sent[] = [];
let answer: () => Response = () => HttpResponse.json({ error: { message: 'no answer set' } }, { status: 500 });
const server = setupServer(
  http.post(`${BASE}/chat/completions`, async ({ request }) => {
    sent.push({ authorization: request.headers.get('authorization'), body: (await request.json()) as Record<string, unknown> });
    return answer();
  }),
);

const transcript = (value: VisionTranscript) => () => chatCompletion(value);
const lines = transcriptLines;
const GOOGLE_REVIEW = GOOGLE_REVIEW_LINES;

const INSTAGRAM_PROFILE = (handle: string, button: string, kind: 'button' | 'filled_button') =>
  lines(
    `${handle}
1,204 5,321 210
posts followers following
Crumb & Co Bakery
Small-batch sourdough, croissants and cardamom buns
${button}
Menu Cakes Hours`,
    { [button]: kind },
  );

const review = { businessId: 'b1', businessName: 'Crumb & Co Bakery', platform: 'google' as const, image, reviewerName: 'Ana Pereira', reviewLink: 'https://maps.app.goo.gl/abc' };
const follow = { businessId: 'b1', businessName: 'Crumb & Co Bakery', platform: 'instagram' as const, image, userHandle: '@ana.pereira', businessHandle: '@crumbandco', verificationType: 'follow' as const };

let history: InMemoryVerificationHistory;
let verifier: VisionScreenshotVerifier;

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  history = new InMemoryVerificationHistory();
  verifier = new VisionScreenshotVerifier({ apiKey: KEY, model: 'vision-model', baseURL: BASE, history, maxRetries: 0, timeoutMs: 5_000 });
});
afterEach(() => {
  sent.length = 0;
  history.clear();
});
afterAll(() => server.close());

describe('VisionScreenshotVerifier', () => {
  it('sends the screenshot as a JPEG with the key and a JSON schema, and accepts a genuine review by its own rules', async () => {
    answer = transcript({ lines: GOOGLE_REVIEW, stars: 5 });
    const result = await verifier.verifyReview(review);
    expect(result).toMatchObject({ isValid: true, rejectionCode: null, evidence: { starRating: 5 } });
    expect(result.evidence.imageHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.evidence.reviewText).toMatch(/^Best croissants in Portland/);
    expect(sent).toHaveLength(1);
    const body = sent[0]!.body as { model: string; response_format: { type: string }; messages: Array<{ role: string; content: unknown }> };
    expect(sent[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(body.model).toBe('vision-model');
    expect(body.response_format.type).toBe('json_schema');
    const parts = body.messages.find((m) => m.role === 'user')!.content as Array<{ type: string; image_url?: { url: string } }>;
    const url = parts.find((p) => p.type === 'image_url')!.image_url!.url;
    expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const sentImage = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
    expect(sentImage).toMatchObject({ format: 'jpeg' });
    expect(sentImage.width).toBeLessThanOrEqual(1080);
  });

  it('keeps the judge: another author, and a review shown on another platform, are rejected', async () => {
    answer = transcript({ lines: GOOGLE_REVIEW, stars: 5 });
    expect(await verifier.verifyReview({ ...review, reviewerName: 'Ana Pereiro' })).toMatchObject({ isValid: false, rejectionCode: 'name_mismatch' });
    answer = transcript({ lines: GOOGLE_REVIEW, stars: 5 });
    expect(await verifier.verifyReview({ ...review, businessName: 'Crumb & Go Bakery' })).toMatchObject({ isValid: false, rejectionCode: 'wrong_business' });
  });

  it('reads follow buttons from the transcript: plain Following passes, a filled button does not, a look-alike handle is another account', async () => {
    answer = transcript({ lines: INSTAGRAM_PROFILE('crumbandco', 'Following', 'button'), stars: null });
    expect(await verifier.verifySocial(follow)).toMatchObject({ isValid: true });
    answer = transcript({ lines: INSTAGRAM_PROFILE('crumbandco', 'Follow', 'filled_button'), stars: null });
    expect(await verifier.verifySocial(follow)).toMatchObject({ isValid: false, rejectionCode: 'not_following' });
    // Whatever it says on the button, a filled one is a call to action.
    answer = transcript({ lines: INSTAGRAM_PROFILE('crumbandco', 'Following', 'filled_button'), stars: null });
    expect(await verifier.verifySocial(follow)).toMatchObject({ isValid: false, rejectionCode: 'not_following' });
    answer = transcript({ lines: INSTAGRAM_PROFILE('crumbandc0o', 'Following', 'button'), stars: null });
    expect(await verifier.verifySocial(follow)).toMatchObject({ isValid: false, rejectionCode: 'wrong_account' });
  });

  it('asks the customer to try again when the service fails or answers something that is not a transcript', async () => {
    for (const failure of [
      () => HttpResponse.json({ error: { message: 'overloaded' } }, { status: 500 }),
      () => HttpResponse.json({ error: { message: 'bad key' } }, { status: 401 }),
      () => HttpResponse.error(),
      transcript({ lines: 'not lines' } as unknown as VisionTranscript),
      () => HttpResponse.json({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'I cannot help', refusal: null } }] }),
    ]) {
      answer = failure;
      const result = await verifier.verifyReview(review);
      expect(result).toMatchObject({ isValid: false, rejectionCode: 'unreadable', rejectionReason: "We couldn't read this screenshot in time. Please try again." });
    }
  });

  it('sends nothing for bad input, an image it cannot open, or a picture already rewarded', async () => {
    answer = transcript({ lines: GOOGLE_REVIEW, stars: 5 });
    expect(await verifier.verifyReview({ ...review, reviewLink: 'https://example.com/x' })).toMatchObject({ rejectionCode: 'wrong_platform' });
    expect(await verifier.verifyReview({ ...review, image: Buffer.from('not an image') })).toMatchObject({ rejectionCode: 'unreadable' });
    const first = await verifier.verifyReview(review);
    history.markRewarded('b1', first.evidence);
    sent.length = 0;
    expect(await verifier.verifyReview(review)).toMatchObject({ isValid: false, rejectionCode: 'duplicate' });
    expect(sent).toHaveLength(0);
  });

  it('needs a key', () => {
    expect(() => new VisionScreenshotVerifier({ apiKey: '', model: 'm' })).toThrow(/API key/);
  });
});
