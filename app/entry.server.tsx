import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceContext } from './nonce.tsx';
import { SESSION_COOKIE } from './utils/session.server.ts';
import { loggablePath } from '../modules/shared/index.ts';

const ABORT_DELAY = 5_000;

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
      const body = new PassThrough();
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      privateWhenSignedIn(request, responseHeaders);
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
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

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  context.logger?.error({ err: error, path: loggablePath(new URL(request.url).pathname) }, 'unhandled error in loader or action');
}
