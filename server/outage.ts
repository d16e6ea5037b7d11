import type { NextFunction, Request, Response } from 'express';

/** What the customer or the owner reads while the database does not answer. */
export const OUTAGE_MESSAGE = 'RewardLoop cannot reach its database for a moment. Nothing was saved: please try again in a few seconds.';

/** How long after a probe found the database down a 500 is still taken as the outage's. */
export const RECENTLY_DOWN_MS = 10_000;

/**
 * A 500 while the database does not answer (a restart, a failover) becomes a 503 with Retry-After
 * and words the reader can act on: the request failed for a reason outside it, and trying again
 * shortly will work. A load balancer or a client that retries on 503 then does so. Any other 500 is
 * left as it is (a fault of ours, logged as one).
 *
 * From the first byte of a 500 (its head, or a first write before it), the head and the body are
 * held back while `databaseAnswers` is asked (at most one probe a second), then either sent as they
 * were or replaced: replaced too within `RECENTLY_DOWN_MS` of a probe that found the database down
 * (ADR 079: the 500s of requests that failed as the database came back). Mounted after compression, so what is held is the uncompressed body.
 */
export function outageAnswers(options: {
  databaseAnswers: () => Promise<boolean>;
  page: (req: Request, message: string) => string;
  wantsPage: (req: Request) => boolean;
  now?: () => number;
}) {
  let last: { at: number; answers: Promise<boolean> } | null = null;
  // When a probe last found the database not answering: a request that failed in the seconds after
  // (begun while it was down, ended as it came back: "the database system is starting up", a
  // connection cut mid-query) is part of the same outage, though the database answers again.
  let downAt = Number.NEGATIVE_INFINITY;
  const now = options.now ?? Date.now;
  const probe = () => {
    if (!last || now() - last.at > 1000) {
      last = {
        at: now(),
        answers: options
          .databaseAnswers()
          .catch(() => false)
          .then((answers) => {
            if (!answers) downAt = now();
            return answers;
          }),
      };
    }
    return last.answers;
  };
  const outage = async () => !(await probe()) || now() - downAt < RECENTLY_DOWN_MS;
  return (req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    const write = res.write;
    const end = res.end;
    let held: { head: unknown[] | null; chunks: unknown[][] } | null = null;
    // Held from the first byte of a 500: its head, whether written explicitly or by a first write.
    const holding = () => {
      if (!held && res.statusCode === 500 && !res.headersSent) held = { head: null, chunks: [] };
      return held !== null;
    };
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (args[0] === 500 && !res.headersSent) held ??= { head: null, chunks: [] };
      if (!held) return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      held.head = args;
      return this;
    } as typeof res.writeHead;
    res.write = function (this: Response, ...args: unknown[]) {
      if (!holding()) return (write as (...a: unknown[]) => boolean).apply(this, args);
      held!.chunks.push(args);
      return true;
    } as typeof res.write;
    res.end = function (this: Response, ...args: unknown[]) {
      if (!holding()) return (end as (...a: unknown[]) => Response).apply(this, args);
      const { head, chunks } = held!;
      res.writeHead = writeHead;
      res.write = write;
      void outage().then((down) => {
        if (!down) {
          if (head) (writeHead as (...a: unknown[]) => Response).apply(res, head);
          for (const chunk of chunks) (write as (...a: unknown[]) => boolean).apply(res, chunk);
          (end as (...a: unknown[]) => Response).apply(res, args);
          return;
        }
        res.end = end;
        // The held head's headers (Content-Type, Content-Encoding of the 500's body) are not ours.
        for (const name of ['content-type', 'content-length', 'content-encoding', 'vary', 'etag']) res.removeHeader(name);
        res.status(503).setHeader('Retry-After', '5');
        if (options.wantsPage(req)) res.type('text/html').send(options.page(req, OUTAGE_MESSAGE));
        else res.type('application/json').send({ message: OUTAGE_MESSAGE });
      });
      return this;
    } as typeof res.end;
    next();
  };
}
