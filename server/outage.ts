import type { NextFunction, Request, Response } from 'express';

/** What the customer or the owner reads while the database does not answer. */
export const OUTAGE_MESSAGE = 'RewardLoop cannot reach its database for a moment. Nothing was saved: please try again in a few seconds.';

/**
 * A 500 while the database does not answer (a restart, a failover) becomes a 503 with Retry-After
 * and words the reader can act on: the request failed for a reason outside it, and trying again
 * shortly will work. A load balancer or a client that retries on 503 then does so. Any other 500 is
 * left as it is (a fault of ours, logged as one).
 *
 * From the first byte of a 500 (its head, or a first write before it), the head and the body are
 * held back while `databaseAnswers` is asked (at most one probe a second), then either sent as they
 * were or replaced. Mounted after compression, so what is held is the uncompressed body.
 */
export function outageAnswers(options: {
  databaseAnswers: () => Promise<boolean>;
  page: (req: Request, message: string) => string;
  wantsPage: (req: Request) => boolean;
}) {
  let last: { at: number; answers: Promise<boolean> } | null = null;
  const probe = () => {
    if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), answers: options.databaseAnswers().catch(() => false) };
    return last.answers;
  };
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
      void probe().then((answers) => {
        if (answers) {
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
