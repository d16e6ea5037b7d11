import { HttpResponse } from 'msw';
import type { VisionTranscript } from '../../adapters/verification/VisionScreenshotVerifier.ts';

/**
 * The Chat Completions API's answer as the hosted vision verifier reads it (ADR 045): a transcript
 * as the message's JSON content. For msw handlers at the network edge.
 */
export function chatCompletion(value: VisionTranscript): Response {
  return HttpResponse.json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'vision-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(value), refusal: null } }],
  });
}

/** Transcript lines from text, one per line; `buttons` marks the lines that are (filled) buttons. */
export const transcriptLines = (text: string, buttons: Record<string, 'button' | 'filled_button'> = {}) =>
  text.split('\n').map((t) => ({ text: t, kind: buttons[t] ?? ('text' as const) }));

/** Crumb & Co Bakery's Google review by Ana Pereira, as a phone shows it. */
export const GOOGLE_REVIEW_LINES = transcriptLines(`Crumb & Co Bakery
4.7 (312) - Bakery
Overview Reviews Photos About
Google reviews
Ana Pereira
Local Guide - 23 reviews - 41 photos
2 days ago
Best croissants in Portland, flaky and buttery every
single time. The staff remembered my order after
two visits and the oat latte was perfect.
Like Share`);
