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

/**
 * The verifier, each verification timed into `histogram`. A proxy: everything else (the adapter's
 * own methods and fields, a test's view of the fake's calls) is the adapter's, bound to it.
 */
export function timedVerifier<T extends ScreenshotVerifier>(verifier: T, histogram: Instruments['verificationSeconds']): T {
  async function timed<R>(kind: 'review' | 'social', verify: () => Promise<R>): Promise<R> {
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
  const verifyReview: ScreenshotVerifier['verifyReview'] = (request) => timed('review', () => verifier.verifyReview(request));
  const verifySocial: ScreenshotVerifier['verifySocial'] = (request) => timed('social', () => verifier.verifySocial(request));
  return new Proxy(verifier, {
    get(target, property) {
      if (property === 'verifyReview') return verifyReview;
      if (property === 'verifySocial') return verifySocial;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
