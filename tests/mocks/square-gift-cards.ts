import { randomInt, randomUUID } from 'node:crypto';
import { delay, http, HttpResponse } from 'msw';

/**
 * What can go wrong on one request, injected per endpoint (first in, first used):
 * - `500`, `429`: Square refuses before doing anything.
 * - `timeout`: no answer before the client gives up; nothing was done.
 * - `network`: the connection drops; nothing was done.
 * - `after-500`, `after-timeout`, `after-network`: Square DID the work, then the answer is lost (a
 *   500, an answer too late, a dropped connection). On create this is the worker killed between
 *   create and activate before it could save the card: only the idempotency key saves the day.
 */
export type SquareFault = '500' | '429' | 'timeout' | 'network' | 'after-500' | 'after-timeout' | 'after-network';
export type SquareEndpoint = 'create' | 'activate' | 'get';

export type MockCard = {
  id: string;
  gan: string;
  state: 'PENDING' | 'ACTIVE';
  balance: number;
  locationId: string;
  token: string;
};

export type RecordedRequest = {
  endpoint: SquareEndpoint;
  authorization: string | null;
  squareVersion: string | null;
  body: Record<string, unknown> | null;
};

/** An answer as data: the mock decides and records it synchronously, so concurrent requests see each other's effects. */
type Answer = { status: number; json: Record<string, unknown> };
const error = (status: number, category: string, code: string, detail?: string): Answer => ({
  status,
  json: { errors: [{ category, code, ...(detail ? { detail } : {}) }] },
});
const ok = (json: Record<string, unknown>): Answer => ({ status: 200, json });
const respond = (a: Answer) => HttpResponse.json(a.json, { status: a.status });

/**
 * Square's Gift Cards and Gift Card Activities APIs at the network edge (msw), with Square's rules
 * as far as RewardLoop relies on them: bearer tokens scope the cards; a repeated idempotency key
 * with the same body answers the first response again and with another body is refused
 * (IDEMPOTENCY_KEY_REUSED); only a PENDING card can be activated, at its location, with an amount
 * and buyer payment instrument ids. Faults are injected per endpoint.
 */
export function createSquareGiftCardsMock(options: { baseUrl?: string; lateAnswerMs?: number } = {}) {
  const base = options.baseUrl ?? 'https://connect.squareupsandbox.com';
  const lateAnswerMs = options.lateAnswerMs ?? 1500;
  const cards = new Map<string, MockCard>();
  const activations: Array<{ giftCardId: string; amount: number; currency: string; idempotencyKey: string }> = [];
  const requests: RecordedRequest[] = [];
  const faults: Record<SquareEndpoint, SquareFault[]> = { create: [], activate: [], get: [] };
  const idempotency = new Map<string, { body: string; response: Record<string, unknown> }>();
  /** Every valid token; any other gets 401. */
  const tokens = new Set<string>(['test-access-token']);

  async function handle(endpoint: SquareEndpoint, request: Request, work: (body: Record<string, unknown> | null, token: string) => Answer) {
    const raw = request.method === 'GET' ? '' : await request.text();
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    requests.push({ endpoint, authorization: request.headers.get('authorization'), squareVersion: request.headers.get('square-version'), body });
    const fault = faults[endpoint].shift();
    if (fault === '500') return respond(error(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR'));
    if (fault === '429') return respond(error(429, 'RATE_LIMIT_ERROR', 'RATE_LIMITED'));
    if (fault === 'network') return HttpResponse.error();
    if (fault === 'timeout') {
      await delay(lateAnswerMs);
      return respond(error(504, 'API_ERROR', 'GATEWAY_TIMEOUT'));
    }
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
    let answer: Answer;
    if (!tokens.has(token)) {
      answer = error(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'This request could not be authorized.');
    } else {
      const key = typeof body?.idempotency_key === 'string' ? `${token}\u0000${endpoint}\u0000${body.idempotency_key}` : null;
      const seen = key ? idempotency.get(key) : undefined;
      if (seen) {
        answer = JSON.stringify(body) === seen.body ? ok(seen.response) : error(400, 'INVALID_REQUEST_ERROR', 'IDEMPOTENCY_KEY_REUSED');
      } else {
        answer = work(body, token);
        if (key && answer.status === 200) idempotency.set(key, { body: JSON.stringify(body), response: answer.json });
      }
    }
    if (fault === 'after-500') return respond(error(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR'));
    if (fault === 'after-network') return HttpResponse.error();
    if (fault === 'after-timeout') await delay(lateAnswerMs);
    return respond(answer);
  }

  const cardJson = (c: MockCard) => ({
    id: c.id,
    type: 'DIGITAL',
    gan_source: 'SQUARE',
    state: c.state,
    balance_money: { amount: c.balance, currency: 'USD' },
    gan: c.gan,
    created_at: new Date().toISOString(),
  });

  const handlers = [
    http.post(`${base}/v2/gift-cards`, ({ request }) =>
      handle('create', request, (body, token) => {
        const giftCard = body?.gift_card as { type?: string } | undefined;
        if (typeof body?.idempotency_key !== 'string' || !body.idempotency_key) return error(400, 'INVALID_REQUEST_ERROR', 'MISSING_REQUIRED_PARAMETER', 'idempotency_key');
        if (typeof body.location_id !== 'string' || !body.location_id) return error(400, 'INVALID_REQUEST_ERROR', 'MISSING_REQUIRED_PARAMETER', 'location_id');
        if (giftCard?.type !== 'DIGITAL' && giftCard?.type !== 'PHYSICAL') return error(400, 'INVALID_REQUEST_ERROR', 'INVALID_VALUE', 'gift_card.type');
        const card: MockCard = {
          id: `gftc:${randomUUID().replaceAll('-', '')}`,
          gan: `7783${String(randomInt(0, 1e6)).padStart(6, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`,
          state: 'PENDING',
          balance: 0,
          locationId: body.location_id,
          token,
        };
        cards.set(card.id, card);
        return ok({ gift_card: cardJson(card) });
      }),
    ),
    http.post(`${base}/v2/gift-cards/activities`, ({ request }) =>
      handle('activate', request, (body, token) => {
        const activity = body?.gift_card_activity as
          | { type?: string; location_id?: string; gift_card_id?: string; activate_activity_details?: { amount_money?: { amount?: number; currency?: string }; buyer_payment_instrument_ids?: string[] } }
          | undefined;
        if (typeof body?.idempotency_key !== 'string' || !body.idempotency_key) return error(400, 'INVALID_REQUEST_ERROR', 'MISSING_REQUIRED_PARAMETER', 'idempotency_key');
        if (activity?.type !== 'ACTIVATE') return error(400, 'INVALID_REQUEST_ERROR', 'INVALID_VALUE', 'type');
        const card = activity.gift_card_id ? cards.get(activity.gift_card_id) : undefined;
        if (!card || card.token !== token) return error(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Gift card not found.');
        if (card.state !== 'PENDING') return error(400, 'INVALID_REQUEST_ERROR', 'INVALID_GIFT_CARD_STATE', `The gift card is ${card.state}.`);
        if (activity.location_id !== card.locationId) return error(400, 'INVALID_REQUEST_ERROR', 'INVALID_LOCATION');
        const details = activity.activate_activity_details;
        const amount = details?.amount_money?.amount;
        if (typeof amount !== 'number' || amount <= 0 || details?.amount_money?.currency !== 'USD') return error(400, 'INVALID_REQUEST_ERROR', 'INVALID_MONEY');
        if (!details?.buyer_payment_instrument_ids?.length) return error(400, 'INVALID_REQUEST_ERROR', 'MISSING_REQUIRED_PARAMETER', 'buyer_payment_instrument_ids');
        card.state = 'ACTIVE';
        card.balance = amount;
        activations.push({ giftCardId: card.id, amount, currency: 'USD', idempotencyKey: body.idempotency_key });
        return ok({
          gift_card_activity: {
            id: `gcact_${randomUUID().replaceAll('-', '')}`,
            type: 'ACTIVATE',
            location_id: card.locationId,
            created_at: new Date().toISOString(),
            gift_card_id: card.id,
            gift_card_gan: card.gan,
            gift_card_balance_money: { amount, currency: 'USD' },
            activate_activity_details: details,
          },
        });
      }),
    ),
    http.get(`${base}/v2/gift-cards/:id`, ({ request, params }) =>
      handle('get', request, (_body, token) => {
        const card = cards.get(String(params.id));
        if (!card || card.token !== token) return error(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Gift card not found.');
        return ok({ gift_card: cardJson(card) });
      }),
    ),
  ];

  return {
    handlers,
    cards,
    activations,
    requests,
    faults,
    tokens,
    /** Queues faults for an endpoint's next requests. */
    inject(endpoint: SquareEndpoint, ...list: SquareFault[]) {
      faults[endpoint].push(...list);
    },
    reset() {
      cards.clear();
      activations.length = 0;
      requests.length = 0;
      idempotency.clear();
      for (const list of Object.values(faults)) list.length = 0;
    },
  };
}

export type SquareGiftCardsMock = ReturnType<typeof createSquareGiftCardsMock>;
