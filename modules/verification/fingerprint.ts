/**
 * Copies of a rewarded screenshot (ADR 067, ADR 074): a small greyscale thumbnail of the picture
 * (and, since ADR 074, how colourful each of its pixels is), stored with the verification, and a
 * comparison that says whether a new upload is the same capture re-saved or edited as a cheater
 * would (recompressed, rescaled, brighter or darker, more or less contrast, cropped from any side
 * by up to about 15%, the status bar cut off) rather than another capture of a screen that looks
 * alike (another customer's review of the same business in the same app; the same profile at
 * another minute).
 *
 * The comparison: where the one lies on the other (scale and vertical offset from the rows' text
 * lines, horizontal offset from the columns, refined on the pixels); the pixels' correlation
 * there; then, with the tones matched per tile (an edit of brightness or contrast is a
 * non-decreasing map of grey levels), the worst 3x3 patch of the differences. A copy differs a
 * little everywhere; another capture differs a lot somewhere (other words, another clock).
 *
 * The thumbnail and its encoding are in `fingerprint-image.ts` (re-exported here), the alignment in
 * `fingerprint-align.ts`, the differences in `fingerprint-residual.ts`.
 */
import { align, type Alignment, correlate2d, refine } from './fingerprint-align.ts';
import { decodeFingerprint, type GreyImage, MIN_CORRELATION, PATCH_LIMIT } from './fingerprint-image.ts';
import { residual } from './fingerprint-residual.ts';

export * from './fingerprint-image.ts';

export type FingerprintComparison = {
  /** Where the cropped one lies on the other: its top-left corner (thumbnail pixels of the other) and its scale there. */
  offset: number;
  dx: number;
  scale: number;
  /** Pixel correlation over the overlap at that alignment. */
  correlation: number;
  /** Mean absolute difference over the overlap, after the tone mapping. */
  mean: number;
  /** The largest 3x3 patch mean of the differences (or the first found past `stopPast`). */
  worst: number;
  /** The same capture, re-saved, re-toned, cropped or rescaled. */
  sameCapture: boolean;
};

/**
 * Compares two fingerprints (`decodeFingerprint`'s images): either may be a copy of the other
 * cropped (up to about 15% off any side, the status bar, a navigation bar), rescaled,
 * recompressed, brighter or darker, with more or less contrast. Null when no alignment keeps
 * enough of either; else the best alignment and how much the two differ there.
 */
export function compareFingerprints(
  first: GreyImage,
  second: GreyImage,
  /** Stop scanning once a patch differs by more than this (the bench passes Infinity to measure). */
  stopPast = PATCH_LIMIT,
): FingerprintComparison | null {
  if (first.width !== second.width) return null;
  // Either may be the crop of the other: every candidate of both ways, scored on a sample of pixels.
  let best: { long: GreyImage; short: GreyImage; alignment: Alignment; correlation: number } | null = null;
  for (const [long, short] of [[first, second], [second, first]] as const) {
    for (const alignment of align(long, short)) {
      const correlation = correlate2d(long, short, alignment, 4);
      if (!best || correlation > best.correlation) best = { long, short, alignment, correlation };
    }
  }
  if (!best) return null;
  const { long, short } = best;
  const { alignment, correlation } = refine(long, short, best.alignment, best.correlation);
  const comparison = { offset: alignment.dy, dx: alignment.dx, scale: alignment.scale, correlation, mean: 255, worst: 255, sameCapture: false };
  if (correlation < MIN_CORRELATION) return comparison;
  const { mean, worst } = residual(long, short, alignment, stopPast);
  return { ...comparison, mean, worst, sameCapture: worst <= PATCH_LIMIT };
}

/** Whether `candidate` (a stored fingerprint, 'fp1' or 'fp2') is the same capture as `upload`'s. */
export function isSameCapture(upload: string, candidate: string): boolean {
  return isCopyOfAny(upload, [candidate]);
}

/** Whether `upload` is the same capture as any of `stored` (the upload decoded once; unreadable ones skipped). */
export function isCopyOfAny(upload: string, stored: Iterable<string>): boolean {
  const a = decodeFingerprint(upload);
  if (!a) return false;
  for (const candidate of stored) {
    const b = decodeFingerprint(candidate);
    if (b && compareFingerprints(a, b)?.sameCapture) return true;
  }
  return false;
}
