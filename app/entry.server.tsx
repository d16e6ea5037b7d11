import { Transform } from 'node:stream';
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceContext, SurveyStyleContext } from './nonce.tsx';
import { SESSION_COOKIE } from './utils/session.server.ts';
import { loggablePath } from '../modules/shared/index.ts';

const ABORT_DELAY = 5_000;

/**
 * The page's bytes, gathered into one piece per turn of the event loop. React writes a page in
 * pieces of about 2 KB, and the response compressor hands each piece to the thread pool on its own:
 * a 40 KB survey page cost 2 ms of compression a view in 20 round trips, against 0.2 ms in one
 * (issue 29). Streaming still works: what React writes in a later turn goes out in its own piece.
 */
function coalescing(): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const release = () => {
    scheduled = false;
    if (pending.length === 0) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    pending = [];
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(release);
      }
      done();
    },
    flush(done) {
      release();
      done();
    },
  });
  return stream;
}

/** A signed-in owner's pages and data never go into a shared or back/forward cache (issue 9). */
function privateWhenSignedIn(request: Request, headers: Headers) {
  if (new RegExp(`(^|;\\s*)${SESSION_COOKIE}=`).test(request.headers.get('Cookie') ?? '')) headers.set('Cache-Control', 'private, no-store');
}

/** Single-fetch data (`.data`) of a signed-in owner: the same as their pages. */
export function handleDataRequest(response: Response, { request }: { request: Request }) {
  privateWhenSignedIn(request, response.headers);
  return response;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? '';
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Cleared once everything is rendered, so a finished page is not kept alive for ABORT_DELAY.
    const abortTimer = setTimeout(() => abort(), ABORT_DELAY);
    const respond = () => {
      shellRendered = true;
      const body = coalescing();
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      privateWhenSignedIn(request, responseHeaders);
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <SurveyStyleContext.Provider value={loadContext.surveyIslandCss ?? ''}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </SurveyStyleContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          // Browsers get the shell at once; bots and SPA mode wait for everything.
          if (!waitForAll) respond();
        },
        onAllReady() {
          clearTimeout(abortTimer);
          if (waitForAll) respond();
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger?.error({ err: error }, 'render error');
        },
      },
    );
  });
}

/** What Remix hands handleError for every legacy `?_data` request (this app uses single fetch): the client's doing, not a fault. */
const LEGACY_DATA_WARNING = 'Warning: Single fetch-enabled apps should not be making ?_data requests';

/**
 * Remix's error hook, for loaders, actions and the router itself (issue 25, item 9: logs that mean
 * something). A refusal is not an error: Remix's own 404s and 405s (a POST to a page without an
 * action, a `?_data` for no route) arrive as error responses with a 4xx status, and are logged at info
 * with the reason; so is the warning Remix raises for a legacy `?_data` request. Anything else (a
 * thrown Error, a 5xx) is a fault: error level. `context.logger` carries the request id
 * (server/http.ts), so the line can be matched with the response's X-Request-Id.
 */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  const path = loggablePath(new URL(request.url).pathname);
  if (error instanceof Error && error.message.startsWith(LEGACY_DATA_WARNING)) {
    context.logger?.info({ path }, 'legacy ?_data request (this app uses single fetch)');
    return;
  }
  const response = isRouteErrorResponse(error) ? error : null;
  const status = response?.status ?? (error instanceof Response ? error.status : 500);
  // A router error response wraps the Error that explains it ("You made a POST request to … but did not provide an `action`").
  const inner = response && (response as { error?: unknown }).error instanceof Error ? ((response as { error?: unknown }).error as Error) : null;
  if (status < 500) {
    context.logger?.info({ path, status, reason: inner?.message ?? response?.statusText }, 'request refused');
    return;
  }
  context.logger?.error({ err: inner ?? error, path, status }, 'unhandled error in loader or action');
}
