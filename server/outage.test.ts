import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTAGE_MESSAGE, outageAnswers, RECENTLY_DOWN_MS } from './outage.ts';

// The outage answers over a real HTTP server: a route that fails with a 500, a database that answers
// or not as the test says, and a clock the test moves.
let databaseUp = true;
let clock = 1_000_000;
let base: string;
let server: ReturnType<ReturnType<typeof express>['listen']>;

beforeAll(async () => {
  const app = express();
  app.use(outageAnswers({ databaseAnswers: async () => databaseUp, page: () => '<p>down</p>', wantsPage: () => false, now: () => clock }));
  app.get('/fails', (_req, res) => void res.status(500).send('Unexpected Server Error'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = async () => {
  const res = await fetch(`${base}/fails`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
};

describe('a 500 while the database does not answer, and just after', () => {
  it('a fault of ours with the database answering stays a 500', async () => {
    expect(await get()).toMatchObject({ status: 500, body: 'Unexpected Server Error' });
  });

  it('becomes a 503 with Retry-After while the database does not answer', async () => {
    databaseUp = false;
    clock += 2_000;
    const down = await get();
    expect(down).toMatchObject({ status: 503, retryAfter: '5' });
    expect(JSON.parse(down.body)).toEqual({ message: OUTAGE_MESSAGE });
  });

  it('is still the outage for a request that failed as the database came back, then a 500 again', async () => {
    databaseUp = true;
    clock += 2_000;
    expect((await get()).status).toBe(503);
    clock += RECENTLY_DOWN_MS;
    expect((await get()).status).toBe(500);
  });
});
