/**
 * ScreenshotVerifier on tesseract.js, offline: sharp decodes and prepares the image (greyscale,
 * normalised, dark mode inverted, small screenshots enlarged, at most 2000 px), a reused pool of
 * OCR worker threads reads it, the star rows are counted from pixels, and the module's judge decides.
 * See `preprocess.ts` for the image hash, `TesseractPool.ts` for the pool, `ocr-text.ts` for the
 * reading of tesseract's TSV and `merge-readings.ts` for how the closer passes' readings are merged.
 */
import { EMPTY_VERIFICATION_HISTORY, type OcrText, type ReviewVerificationRequest, type ScreenshotVerifier, type SocialVerificationRequest, type VerificationHistory, type VerificationResult, verifyReviewWith, verifySocialWith, type OpenedScreenshot, type ScreenshotReader, type ScreenshotReading } from '../../modules/verification/server.ts';
import { WHITE_ROW_SCALE } from './closer-reading.ts';
import { colouredMentions, endsInStub, mergeReadings, readInkRow, SURE_LINE_CONFIDENCE } from './merge-readings.ts';
import { boxOf, fromWords, offset, placed, sampleButtonFills, tsvToOcrText } from './ocr-text.ts';
import { openScreenshot, type DecodedScreenshot } from './preprocess.ts';
import { screenToOcr } from './screen-finder.ts';
import { findStarRows } from './stars.ts';
import { NAME_LANGUAGES, OcrTimeoutError, TesseractPool, type TesseractPoolOptions } from './TesseractPool.ts';
import sharp from 'sharp';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

export type OcrScreenshotVerifierOptions = TesseractPoolOptions & {
  history?: VerificationHistory;
  /** OCR time allowed per image before the customer is asked to try again; default 30 s. */
  ocrTimeoutMs?: number;
  /**
   * The models that read a reviewer's name line again when the name does not match (ADR 076):
   * default English, Spanish, Portuguese, French, German and Polish together (`NAME_LANGUAGES`);
   * null reads no line again.
   */
  nameLanguages?: readonly string[] | null;
};

/** How much a name's line is enlarged before it is read again (see `rereadLines`). */
const NAME_SCALE = 2;

export class OcrScreenshotVerifier implements ScreenshotVerifier {
  readonly id = 'ocr' as const;
  readonly pool: TesseractPool;
  /** One worker reading single lines with the models of accented Latin letters (ADR 076); null when off. */
  readonly namePool: TesseractPool | null;
  private readonly history: VerificationHistory;
  private readonly ocrTimeoutMs: number;
  private readonly reader: ScreenshotReader;

  constructor(options: OcrScreenshotVerifierOptions = {}) {
    this.pool = new TesseractPool(options);
    const nameLanguages = options.nameLanguages === undefined ? NAME_LANGUAGES : options.nameLanguages;
    this.namePool = nameLanguages?.length ? new TesseractPool({ size: 1, langs: nameLanguages, pageSegMode: 7, ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}), ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) }) : null;
    this.history = options.history ?? EMPTY_VERIFICATION_HISTORY;
    this.ocrTimeoutMs = options.ocrTimeoutMs ?? 30_000;
    this.reader = { open: (image) => this.open(image) };
  }

  verifyReview(request: ReviewVerificationRequest): Promise<VerificationResult> {
    return verifyReviewWith(this.reader, this.history, request);
  }

  verifySocial(request: SocialVerificationRequest): Promise<VerificationResult> {
    return verifySocialWith(this.reader, this.history, request);
  }

  /**
   * Starts the OCR workers now (e.g. when a job worker process boots). The name reader's worker
   * (six models, seconds to load) starts too, in the background: it is needed only when a name
   * does not match, and waiting for it would hold the first verification back (ADR 076).
   */
  async warmUp(): Promise<void> {
    // A start that fails is retried on first use (the pool drops a generation that did not start).
    this.namePool?.warmUp().catch(() => {});
    await this.pool.warmUp();
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.namePool?.close()]);
  }

  /**
   * The given lines of a reading read again by the name reader's models (accented Latin letters:
   * 'Łukasz Wróbel' where English reads 'Fukasz Wrobel', 'Gonçalves' for 'Gongalves'): the span of
   * the line's words of two letters or more and initials with their period (not an avatar's letter
   * or a '⋮' beside them), cut out
   * with a margin of 0.4 of their height, enlarged twice and read as one line: of the cut-outs
   * tried on the names set (margins 0.4 and 0.8, as is and enlarged, as a line, sparse text or raw
   * line), this read every name's letters right (ADR 076). The line keeps its place and box; its words and text
   * are those of the new reading whose middle lies within that span. Null on a timeout.
   */
  private async rereadLines(base: OcrText, decoded: Pick<DecodedScreenshot, 'ocrImage' | 'ocrWidth' | 'ocrHeight'>, indexes: readonly number[]): Promise<OcrText | null> {
    const pool = this.namePool;
    if (!pool) return null;
    const lines = [...base.lines];
    try {
      for (const index of indexes) {
        const line = base.lines[index];
        if (!line) continue;
        // (A last name's initial, 'W.' as Yelp shows it, is part of the name, not an avatar's letter.)
        const named = line.words.filter((w) => (w.text.match(/\p{L}/gu) ?? []).length >= 2 || /^\p{L}\.$/u.test(w.text));
        const span = named.length > 0 ? boxOf(named.map((w) => w.bbox)) : line.bbox;
        const pad = Math.round((span.y1 - span.y0) * 0.4);
        const left = Math.max(0, Math.floor(span.x0 - pad));
        const top = Math.max(0, Math.floor(span.y0 - pad));
        const width = Math.min(decoded.ocrWidth, Math.ceil(span.x1 + pad)) - left;
        const height = Math.min(decoded.ocrHeight, Math.ceil(span.y1 + pad)) - top;
        if (width < 8 || height < 8) continue;
        const crop = await sharp(decoded.ocrImage).extract({ left, top, width, height }).resize({ width: width * NAME_SCALE, kernel: 'lanczos3' }).png().toBuffer();
        const read = placed(tsvToOcrText(await pool.recognize(crop, this.ocrTimeoutMs, { pageSegMode: 7 }), width * NAME_SCALE, height * NAME_SCALE), (x, y) => ({ x: left + x / NAME_SCALE, y: top + y / NAME_SCALE }));
        const words = read.lines
          .filter((l) => (l.bbox.y0 + l.bbox.y1) / 2 >= span.y0 && (l.bbox.y0 + l.bbox.y1) / 2 <= span.y1)
          .flatMap((l) => l.words)
          .sort((a, b) => a.bbox.x0 - b.bbox.x0);
        if (words.length === 0) continue;
        lines[index] = { ...fromWords(words), bbox: line.bbox };
      }
    } catch (error) {
      if (error instanceof OcrTimeoutError) return null;
      throw error;
    }
    return { ...base, lines };
  }

  /** Reads one image: its text with boxes and its star rows (for the bench and debugging). */
  async read(image: Buffer): Promise<ScreenshotReading | null> {
    const opened = await this.open(image);
    return opened.read ? opened.read() : null;
  }

  private open(image: Buffer): Promise<OpenedScreenshot> {
    return openScreenshot(image, async (decoded) => {
      let tsv: string;
      try {
        tsv = await this.pool.recognize(decoded.ocrImage, this.ocrTimeoutMs);
      } catch (error) {
        if (error instanceof OcrTimeoutError) return { kind: 'timeout' };
        throw error;
      }
      const ocr = tsvToOcrText(tsv, decoded.ocrWidth, decoded.ocrHeight);
      ocr.background = decoded.background;
      sampleButtonFills(ocr, decoded);
      const starRows = findStarRows(decoded.stars).map((row) => ({ ...row, y: row.y * decoded.starToOcr }));
      const reread = (base: OcrText) => (indexes: readonly number[]) => this.rereadLines(base, decoded, indexes);
      const more = async (): Promise<ScreenshotReading> => {
        // Sparse-text passes over what the first pass left: the greyscale image (labels inside
        // buttons, text automatic segmentation skipped) and the white-text mask (captions, stickers
        // and overlays on photos and videos), run side by side on the pool; and over the whole
        // light-text mask (light text over a pale picture, which the first pass cuts short).
        const heights = ocr.lines.map((l) => l.bbox.y1 - l.bbox.y0).sort((a, b) => a - b);
        const lineHeight = heights[Math.floor(heights.length / 2)] ?? 40;
        const images = await decoded.closer(
          ocr.lines.filter((l) => l.confidence >= SURE_LINE_CONFIDENCE).map((l) => l.bbox),
          lineHeight,
          {
            bands: ocr.lines.filter((l) => l.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 3).length < 3,
            stubs: ocr.lines.filter((l) => l.confidence >= SURE_LINE_CONFIDENCE && l.words.length >= 2 && endsInStub(l)).map((l) => l.bbox),
          },
        );
        let readings: OcrText[];
        // The light-text mask's reading: merged last, and only adding (see `mergeReadings`).
        let lightReading: OcrText;
        let screenReading: OcrText | null = null;
        let coloured: OcrText | null = null;
        try {
          /** One OCR pass over an image of the picture's OCR size (`k` times it: enlarged). */
          const ocrOf = async (image: Buffer, options: { pageSegMode?: number; adaptiveThreshold?: boolean }, k = 1) =>
            tsvToOcrText(await this.pool.recognize(image, this.ocrTimeoutMs, options), decoded.ocrWidth * k, decoded.ocrHeight * k);
          const sparse = [images.grey, images.whiteText].map((image) => ocrOf(image, { pageSegMode: 11 }));
          // ... and each row of ink left as a single line (see `readInkRow`).
          const rows = images.rows.map(async (row) => offset(await readInkRow((options) => ocrOf(row.image, options)), row.left, row.top));
          // ... and, in a photo of a phone, its screen cut out and enlarged (small, unevenly lit text).
          const { screen } = images;
          const onScreen = (pageSegMode: number) => (screen ? ocrOf(screen.image, { adaptiveThreshold: true, pageSegMode }).then((read) => placed(read, (x, y) => screenToOcr(screen, x, y))) : null);
          const photo = onScreen(3);
          // ... and the same cut-out read as sparse text: small grey lines (a date, 'Local Guide ·
          // 137 reviews') that the page's layout analysis drops as noise on a photographed screen.
          const photoSparse = onScreen(11);
          // ... and, when the first pass read next to nothing, each band of the image as a page
          // (before the other passes: whole lines read in context, not replaced by fragments).
          const bands = images.bands.map(async (band) => offset(await ocrOf(band.image, { pageSegMode: 3 }), band.left, band.top));
          // The light-text mask last: it adds what nothing else read, or a longer reading of a line.
          const light = ocrOf(images.lightText, { pageSegMode: 11 });
          // ... and the coloured-text mask (a story's mention sticker in its gradient).
          const colouredText = ocrOf(images.colouredText, { pageSegMode: 11 });
          // ... and the top of the screen enlarged (a story's author row), when the first pass read it unsure.
          const unsureTop = ocr.lines.some((l) => l.bbox.y1 <= decoded.ocrHeight * 0.1 && l.confidence < SURE_LINE_CONFIDENCE);
          // ... and each line cut short, again in whiteness, enlarged, as a single line.
          const whiteRows = images.whiteRows.map(async (row) => placed(await ocrOf(row.image, { pageSegMode: 7 }, WHITE_ROW_SCALE), (x, y) => ({ x: row.left + x / WHITE_ROW_SCALE, y: row.top + y / WHITE_ROW_SCALE })));
          const top = (unsureTop ? images.top : []).map(async (image) => placed(await ocrOf(image, { pageSegMode: 11 }, 2), (x, y) => ({ x: x / 2, y: y / 2 })));
          let sparseScreen: OcrText | null;
          [coloured, screenReading, sparseScreen, lightReading, ...readings] = await Promise.all([colouredText, photo, photoSparse, light, ...bands, ...sparse, ...rows, ...whiteRows, ...top]);
          if (sparseScreen) readings.unshift(sparseScreen);
          readings.push(lightReading);
        } catch (error) {
          if (error instanceof OcrTimeoutError) return { kind: 'timeout' };
          throw error;
        }
        // The screen's enlarged reading, where there is one, is the base (it read the screen whole);
        // the first pass adds what lies outside it, then the other passes what both missed.
        const longerOnly = [lightReading];
        const merged = screenReading ? mergeReadings({ ...ocr, lines: screenReading.lines }, [ocr, ...readings], { longerOnly }) : mergeReadings(ocr, readings, { longerOnly });
        // A mention read clearly off the coloured-text mask stands beside whatever the other passes
        // made of that spot (greyscale loses the light end of a gradient: 'rTLEFIGCOFFEE').
        const mentions = colouredMentions(coloured, merged);
        if (mentions.length > 0) {
          merged.lines.push(...mentions);
          merged.lines.sort((a, b) => (a.bbox.y0 + a.bbox.y1) / 2 - (b.bbox.y0 + b.bbox.y1) / 2 || a.bbox.x0 - b.bbox.x0);
        }
        merged.background = decoded.background;
        sampleButtonFills(merged, decoded);
        return { kind: 'read', ocr: merged, starRows, reread: reread(merged) };
      };
      return { kind: 'read', ocr, starRows, more, reread: reread(ocr) };
    });
  }
}

/** SCREENSHOT_VERIFIER=ocr (ADR 055): tesseract.js, offline; workers start on first use. */
export const provider = defineProvider({
  id: 'ocr',
  options: z.object({}).transform(() => ({ ocrTimeoutMs: 30_000 })),
  create: (options, deps: { history: VerificationHistory }) => new OcrScreenshotVerifier({ ...options, history: deps.history }),
});
