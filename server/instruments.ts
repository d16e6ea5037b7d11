import client from 'prom-client';
import type { ScreenshotVerifier } from '../modules/verification/index.ts';

/**
 * Metrics measured where the work happens, made by the composition root and registered by /metrics
 * (server/metrics.ts): the screenshot verifiers are wrapped so that every verification, from a
 * request or the CLI's replay, is timed.
 */
export type Instruments = {
  verificationSeconds: client.Histogram<'verifier' | 'kind' | 'outcome'>;
};

export function createInstruments(): Instruments {
  return {
    verificationSeconds: new client.Histogram({
      name: 'rewardloop_screenshot_verification_duration_seconds',
      help: 'Time to verify one screenshot, by verifier (ocr, vision, fake), kind (review, social) and outcome (done, error).',
      labelNames: ['verifier', 'kind', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30],
      // Registered by the metrics endpoint's registry, not the global one.
      registers: [],
    }),
  };
}

/** The verifier, each call timed into `histogram`. */
export function timedVerifier(verifier: ScreenshotVerifier, histogram: Instruments['verificationSeconds']): ScreenshotVerifier {
  async function timed<T>(kind: 'review' | 'social', verify: () => Promise<T>): Promise<T> {
    const end = histogram.startTimer({ verifier: verifier.id, kind });
    try {
      const result = await verify();
      end({ outcome: 'done' });
      return result;
    } catch (error) {
      end({ outcome: 'error' });
      throw error;
    }
  }
  return {
    id: verifier.id,
    verifyReview: (request) => timed('review', () => verifier.verifyReview(request)),
    verifySocial: (request) => timed('social', () => verifier.verifySocial(request)),
    close: () => verifier.close(),
  };
}
