import { waitAmount } from '../../modules/accounts/index.ts';
import type { Translator } from '../../modules/i18n/index.ts';
/** Small helpers of the survey page's requests from the browser. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 'HTTP {status}: {text}' errors of spec 8 carry a JSON body; take its fields when there are any. */
export async function readError(res: Response): Promise<{ message: string; body: Record<string, unknown> }> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return { message: typeof body.message === 'string' ? body.message : `${res.status}: ${text}`, body };
  } catch {
    return { message: `${res.status}: ${text || res.statusText}`, body: {} };
  }
}

/**
 * A refusal as the customer reads it (ADR 090): a rate limit (429 with Retry-After) in their language,
 * the wait counted as the edge's 429 page counts it; otherwise the server's message, looked up in the
 * catalog (a message no catalog has stays as the server wrote it).
 */
export function refusalMessage(res: Pick<Response, 'status' | 'headers'>, message: string, tr: Pick<Translator, 't'>): string {
  const retry = Number(res.headers.get('Retry-After'));
  if (res.status === 429 && Number.isFinite(retry) && retry > 0) {
    const { count, unit } = waitAmount(retry);
    return tr.t(unit === 'seconds' ? 'Too many attempts. Please wait {{count}} seconds and try again.' : 'Too many attempts. Please wait {{count}} minutes and try again.', { count });
  }
  return tr.t(message);
}
