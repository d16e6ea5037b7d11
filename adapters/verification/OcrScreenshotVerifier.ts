/**
 * ScreenshotVerifier on tesseract.js, offline: sharp decodes and prepares the image (greyscale,
 * normalised, dark mode inverted, small screenshots enlarged, at most 2000 px), a reused pool of
 * OCR worker threads reads it, the star rows are counted from pixels, and the module's judge decides.
 * See `preprocess.ts` for the image hash and `TesseractPool.ts` for the pool.
 */
import { EMPTY_VERIFICATION_HISTORY, type OcrLine, type OcrText, type ReviewVerificationRequest, type ScreenshotVerifier, type SocialVerificationRequest, type VerificationHistory, type VerificationResult, verifyReviewWith, verifySocialWith, type OpenedScreenshot, type ScreenshotReader, type ScreenshotReading } from '../../modules/verification/server.ts';
import { WHITE_ROW_SCALE } from './closer-reading.ts';
import { dominantColour } from './pixels.ts';
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

/** A line's text and confidence from its words (joined by spaces; their mean confidence). */
function fromWords(words: OcrLine['words']): Pick<OcrLine, 'text' | 'confidence' | 'words'> {
  return { text: words.map((w) => w.text).join(' '), confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length, words };
}

/**
 * Lines with their words and boxes from tesseract's TSV output (level 4 rows are lines, level 5
 * rows words; lighter to produce and to pass between threads than the block tree).
 */
export function tsvToOcrText(tsv: string, width: number, height: number): OcrText {
  const lines = new Map<string, OcrLine>();
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    const text = cols.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, w, h, conf] = cols.slice(6, 11).map(Number) as [number, number, number, number, number];
    const bbox = { x0: left, y0: top, x1: left + w, y1: top + h };
    const key = cols.slice(1, 5).join('.');
    let line = lines.get(key);
    if (!line) {
      line = { text: '', confidence: 0, bbox: { ...bbox }, words: [] };
      lines.set(key, line);
    }
    line.words.push({ text, confidence: conf, bbox });
    line.bbox = { x0: Math.min(line.bbox.x0, bbox.x0), y0: Math.min(line.bbox.y0, bbox.y0), x1: Math.max(line.bbox.x1, bbox.x1), y1: Math.max(line.bbox.y1, bbox.y1) };
  }
  for (const line of lines.values()) Object.assign(line, fromWords(line.words));
  // Top to bottom: tesseract's block order can put a later row first (a name beside an avatar,
  // a dark card); the judge reads 'the next lines' by position.
  const sorted = [...lines.values()].sort((a, b) => (a.bbox.y0 + a.bbox.y1) / 2 - (b.bbox.y0 + b.bbox.y1) / 2 || a.bbox.x0 - b.bbox.x0);
  return { lines: sorted, width, height };
}

/** Words that may be a follow button's label (letters only, lowercase). */
const BUTTON_WORDS = /^(follow|folow|following|followlng|friends|liked|like|requested|followback)$/;

/**
 * Samples the colour behind each word that may be a follow button (its box widened by half its
 * height each way, in the original pixels): the judge tells a filled 'Follow' button from a plain
 * 'Following' one by it.
 */
export function sampleButtonFills(ocr: OcrText, decoded: Pick<DecodedScreenshot, 'rgb' | 'ocrToRgb'>): void {
  const k = decoded.ocrToRgb;
  for (const line of ocr.lines) {
    for (const word of line.words) {
      if (!BUTTON_WORDS.test(word.text.toLowerCase().replace(/[^a-z]/g, ''))) continue;
      const h = word.bbox.y1 - word.bbox.y0;
      word.fill = dominantColour(decoded.rgb, {
        x0: (word.bbox.x0 - h * 0.5) * k,
        y0: (word.bbox.y0 - h * 0.5) * k,
        x1: (word.bbox.x1 + h * 0.5) * k,
        y1: (word.bbox.y1 + h * 0.5) * k,
      });
    }
  }
}

/**
 * A reading without the unsure scraps of one to three characters that icons beside a label read as
 * ('O Message a v Following vee': a speech bubble, a check mark, a '...' button): each line keeps its
 * other words, its confidence theirs.
 */
export function withoutIconNoise(ocr: OcrText): OcrText {
  const lines: OcrLine[] = [];
  for (const line of ocr.lines) {
    const words = line.words.filter((w) => w.confidence >= 50 || w.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 4);
    if (words.length === 0) continue;
    lines.push({
      ...fromWords(words),
      bbox: { x0: Math.min(...words.map((w) => w.bbox.x0)), y0: Math.min(...words.map((w) => w.bbox.y0)), x1: Math.max(...words.map((w) => w.bbox.x1)), y1: Math.max(...words.map((w) => w.bbox.y1)) },
    });
  }
  return { ...ocr, lines };
}

/** Whether a reading holds a line the merge keeps (three characters or more, read at 40% or more). */
const keptByMerge = (read: OcrText) => read.lines.some((l) => l.confidence >= 40 && l.text.replace(/[^\p{L}\p{N}@]/gu, '').length >= 3);

/**
 * A row of ink the first pass left, read as a single line (page segmentation 7). A row that reads
 * as nothing the merge keeps is read again with a threshold per tile: one threshold for the whole
 * row turns a mid-grey filled button (a blue 'Message' beside a dark-mode 'Suivi(e)', read
 * '© Message ~~ Suivi)' at 33%) into a black slab, and the labels beside it are lost with it. A row
 * still read as nothing is read as sparse text (11): single-line readings of a light mode's blue
 * 'Message' slab beside a grey 'Following' button read nothing, or scraps ('| Ouessage JERVIS' at
 * 6%); read as clusters, 'v Following' comes out.
 */
export async function readInkRow(ocrOf: (options: { pageSegMode: number; adaptiveThreshold?: boolean }) => Promise<OcrText>): Promise<OcrText> {
  let read = await ocrOf({ pageSegMode: 7 });
  if (!keptByMerge(read)) read = withoutIconNoise(await ocrOf({ pageSegMode: 7, adaptiveThreshold: true }));
  if (!keptByMerge(read)) read = withoutIconNoise(joinRows(await ocrOf({ pageSegMode: 11 })));
  return read;
}

/** An OCR reading of a cut-out moved back to where the cut-out was. */
function offset(ocr: OcrText, left: number, top: number): OcrText {
  return placed(ocr, (x, y) => ({ x: x + left, y: y + top }));
}

/**
 * An OCR reading of a transformed cut-out (moved, scaled, turned) put back with `to`: each box keeps
 * its shape, scaled, about its mapped centre (a level line stays a level line of its own height).
 */
function placed(ocr: OcrText, to: (x: number, y: number) => { x: number; y: number }): OcrText {
  const move = (b: OcrLine['bbox']) => {
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const c = to(cx, cy);
    const unit = to(cx + 1, cy);
    const k = Math.hypot(unit.x - c.x, unit.y - c.y);
    const hw = ((b.x1 - b.x0) * k) / 2;
    const hh = ((b.y1 - b.y0) * k) / 2;
    return { x0: c.x - hw, y0: c.y - hh, x1: c.x + hw, y1: c.y + hh };
  };
  return { ...ocr, lines: ocr.lines.map((l) => ({ ...l, bbox: move(l.bbox), words: l.words.map((w) => ({ ...w, bbox: move(w.bbox) })) })) };
}

/** How much a name's line is enlarged before it is read again (see `rereadLines`). */
const NAME_SCALE = 2;

/** The box around boxes. */
const boxOf = (boxes: readonly OcrLine['bbox'][]): OcrLine['bbox'] => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

const compactText = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}@]/gu, '');

/** First-pass lines read at least this confidently are blanked out before the closer passes. */
const SURE_LINE_CONFIDENCE = 60;

/** A line's last word read under this confidence may be a stub of what follows (see `mergeReadings`). */
const STUB_CONFIDENCE = 75;
/** Whether a line ends in such a stub ('Best brunch spot, tf', 'SO sam.obrie'). */
const endsInStub = (l: OcrLine) => (l.words.at(-1)?.confidence ?? 100) < STUB_CONFIDENCE;
/**
 * A last word of one or two letters read under this confidence may be a stub too: OCR is surer of a
 * scrap than of a long word ('Best brunch spot, tl':85, where 'thank you @emberandoakgrill' turns pale).
 */
const FRAGMENT_CONFIDENCE = 90;
const endsInFragment = (l: OcrLine) => {
  const last = l.words.at(-1);
  return last !== undefined && last.confidence < FRAGMENT_CONFIDENCE && compactText(last.text).length <= 2;
};

function overlapArea(a: OcrLine['bbox'], b: OcrLine['bbox']): number {
  return Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
}

const area = (b: OcrLine['bbox']) => Math.max(1, (b.x1 - b.x0) * (b.y1 - b.y0));

/**
 * Sparse-text OCR (page segmentation 11) returns each cluster of words as its own line; clusters
 * side by side on one row ('@noahw · 2h', 'Message  Following') are joined back into one line.
 */
export function joinRows(ocr: OcrText): OcrText {
  const rows: OcrLine[] = [];
  const byX = [...ocr.lines].sort((a, b) => a.bbox.x0 - b.bbox.x0);
  for (const line of byX) {
    const h = line.bbox.y1 - line.bbox.y0;
    const row = rows.find((r) => {
      const rh = r.bbox.y1 - r.bbox.y0;
      const vertical = Math.min(r.bbox.y1, line.bbox.y1) - Math.max(r.bbox.y0, line.bbox.y0);
      // Beside it, not inside it: scraps of a photographed picture over a caption's span ('<5 i po,'
      // inside 'Could eat here every day Crumb & Co Bakery!') are not its words.
      return vertical > 0.5 * Math.min(h, rh) && line.bbox.x0 - r.bbox.x1 < 1.5 * Math.max(h, rh) && line.bbox.x0 >= r.bbox.x1 - 0.5 * Math.min(h, rh);
    });
    if (!row) {
      rows.push({ ...line, words: [...line.words], bbox: { ...line.bbox } });
      continue;
    }
    row.words.push(...line.words);
    Object.assign(row, fromWords(row.words));
    row.bbox = { x0: Math.min(row.bbox.x0, line.bbox.x0), y0: Math.min(row.bbox.y0, line.bbox.y0), x1: Math.max(row.bbox.x1, line.bbox.x1), y1: Math.max(row.bbox.y1, line.bbox.y1) };
  }
  return { ...ocr, lines: rows };
}

/**
 * A line replacing others (a longer or clearer reading of them) with, at each place, the word read
 * more surely: a word of a replaced line over the same spot, as long, read with more confidence than
 * the new reading's ('@rosastaqueria':90 from the greyscale pass, '@rosastagueria':78 in the
 * light-text mask's longer line). A shorter word there is a cut reading ('origina'), not a surer one.
 */
function surerWords(line: OcrLine, replaced: readonly OcrLine[]): OcrLine {
  let changed = false;
  const words = line.words.map((w) => {
    const other = replaced
      .flatMap((l) => l.words)
      .find(
        (o) =>
          o.confidence > w.confidence &&
          compactText(o.text) !== compactText(w.text) &&
          compactText(o.text).length === compactText(w.text).length &&
          compactText(o.text).length >= 3 &&
          overlapArea(o.bbox, w.bbox) > 0.7 * Math.max(area(o.bbox), area(w.bbox)),
      );
    if (!other) return w;
    changed = true;
    return other;
  });
  if (!changed) return line;
  return { ...line, ...fromWords(words) };
}

/**
 * The first pass's lines plus the closer passes' lines that add something: a line where the first
 * pass read nothing, or a clearer reading of a line it (or an earlier closer pass) read poorly, which
 * it replaces. Noise
 * (one or two characters, low confidence) is dropped. A reading in `longerOnly` (the light-text
 * mask) adds lines and longer or re-read ones, but never replaces a line only by reading it more
 * surely: it reads some letters confidently wrong ('oltviasmith 38m':90 for '© oliviasmith»38m':46).
 */
export function mergeReadings(first: OcrText, extras: readonly OcrText[], options: { longerOnly?: readonly OcrText[] } = {}): OcrText {
  const lines = [...first.lines];
  const firstLines = new Set(first.lines);
  for (const extra of extras) {
    for (const line of joinRows(extra).lines) {
      if (line.text.replace(/[^\p{L}\p{N}@]/gu, '').length < 3 || line.confidence < 40) continue;
      const overlapping = lines.filter((l) => overlapArea(l.bbox, line.bbox) > 0.4 * Math.min(area(l.bbox), area(line.bbox)));
      if (overlapping.length === 0) {
        lines.push(line);
        continue;
      }
      // A clearer reading replaces: a first-pass line read poorly, or another closer pass's reading
      // of the same spot; so does a longer reading of the same line, the text read before and more
      // ('Coffee date at @bluedoo' cut where the picture behind turns pale).
      const longer = compactText(line.text);
      // The first pass's last word may be a misread stub where it stopped ('Best brunch spot, tf'
      // for '... thank you @thecopperkettle'): read unsure (or a scrap of two letters read under 90),
      // it need not be in the longer reading.
      // The longer reading must go on with the stub's first letter: 'La Petite Boulan(' does not give
      // way to 'La Petite oulangerie!' (the picture behind ate the 'B': another page's name).
      const stem = (l: OcrLine) => {
        if (l.words.length < 3 || !(endsInStub(l) || endsInFragment(l))) return null;
        const head = compactText(l.words.slice(0, -1).map((w) => w.text).join(' '));
        const first = compactText(l.words.at(-1)!.text)[0];
        const at = longer.indexOf(head);
        return at < 0 || first === undefined || longer.startsWith(first, at + head.length) ? head : null;
      };
      // ... and a line ending in a stub, read whole, may be longer by as little as a letter ('sam.obrie' in 'sam.obrien 38m').
      const extends_ = (l: OcrLine) =>
        line.confidence >= 80 &&
        (longer.length >= compactText(l.text).length + 3 || (endsInStub(l) && longer.length > compactText(l.text).length && longer.includes(compactText(l.text)))) &&
        [compactText(l.text), stem(l)].some((text) => text !== null && text.length >= 3 && longer.includes(text));
      // ... or the same words with the last one cut short there and read whole here: 'Rosa's Taquer'
      // off a tilted screen's cut-out, 'Rosa's Taqueria' in the whole photo.
      const completes = (l: OcrLine) => {
        if (line.confidence < 80 || l.words.length !== line.words.length || l.words.length < 2) return false;
        const was = l.words.map((w) => compactText(w.text));
        const now = line.words.map((w) => compactText(w.text));
        const last = was.length - 1;
        return was.slice(0, last).every((w, i) => w === now[i]) && was[last]!.length >= 3 && now[last]!.length > was[last]!.length && now[last]!.startsWith(was[last]!);
      };
      // Another closer pass's shorter reading inside this one's span ('Coffee da', 'gue #local') gives way too.
      const slack = (line.bbox.y1 - line.bbox.y0) / 2;
      const spans = (l: OcrLine) => line.confidence >= 80 && longer.length >= compactText(l.text).length + 3 && line.bbox.x0 <= l.bbox.x0 + slack && line.bbox.x1 >= l.bbox.x1 - slack;
      // A clearer reading is not a fragment of the line ('Foli' does not replace '( Following').
      const clearer = (l: OcrLine) => !options.longerOnly?.includes(extra) && line.confidence > l.confidence + 10 && longer.length >= 0.6 * compactText(l.text).length;
      // The same words, where the only ones that differ were read unsure and are now read clearly
      // ('@emberandoakagrill':41 in a sure caption, '@emberandoakgrill':80 in the light-text mask).
      const rereads = (l: OcrLine) => {
        if (line.words.length !== l.words.length || line.confidence < 80) return false;
        const changed = l.words.flatMap((w, i) => (compactText(w.text) === compactText(line.words[i]!.text) ? [] : [[w, line.words[i]!] as const]));
        return changed.length > 0 && changed.every(([was, now]) => was.confidence < SURE_LINE_CONFIDENCE && now.confidence >= was.confidence + 20);
      };
      // Word for word, a clearer reading keeps the start of every word: 'Boulan(' read unsure does
      // not give way to 'oulangerie!' (the picture behind ate the 'B': another page's name).
      // (Words of four letters or more: an icon read as a letter or two differs from pass to pass.)
      // A reading of more of the word's start keeps it: 'nastrattoria':72, where the first letters
      // of a white outlined overlay were lost, gives way to '@nonnastrattoria':88.
      const keepsStarts = (l: OcrLine) =>
        l.words.length !== line.words.length ||
        l.words.every((w, i) => {
          const [was, now] = [compactText(w.text), compactText(line.words[i]!.text)];
          return was.length < 4 || now.length < 4 || was[0] === now[0] || now.endsWith(was);
        });
      // Scraps of one or two characters inside a clear reading's box are that line read in pieces
      // (a tilted caption read letter by letter off a photographed screen: '3', '(8)', 'C4', 'wm'
      // where 'Could eat here every day Crumb & Co Bakery!' is read whole by another pass).
      const scrap = (l: OcrLine) =>
        line.confidence >= 80 &&
        compactText(l.text).length <= 2 &&
        l.bbox.x0 >= line.bbox.x0 - slack &&
        l.bbox.x1 <= line.bbox.x1 + slack &&
        l.bbox.y0 >= line.bbox.y0 - slack &&
        l.bbox.y1 <= line.bbox.y1 + slack;
      const replaces = (l: OcrLine) =>
        scrap(l) || (keepsStarts(l) && (firstLines.has(l) && l.confidence >= SURE_LINE_CONFIDENCE ? extends_(l) || completes(l) || rereads(l) : clearer(l) || extends_(l) || completes(l) || rereads(l) || (!firstLines.has(l) && spans(l))));
      if (overlapping.every(replaces)) {
        for (const l of overlapping) lines.splice(lines.indexOf(l), 1);
        lines.push(surerWords(line, overlapping));
      }
    }
  }
  lines.sort((a, b) => (a.bbox.y0 + a.bbox.y1) / 2 - (b.bbox.y0 + b.bbox.y1) / 2 || a.bbox.x0 - b.bbox.x0);
  return { ...first, lines };
}

/**
 * The '@mentions' of the coloured-text mask to add beside the merged reading: read clearly, or read
 * unsure but confirmed by a sure reading of the same spot that is their end (a tilted sticker's
 * '@THECOPPERKETTLE':0 in the mask, 'ECOPPERKETTLE':90 in greyscale, which lost the gradient's light
 * orange start). A confirmed line takes the confirming reading's confidence: it is read as surely as
 * that, no surer, and no OCR slip is forgiven in it for the mask's own doubt.
 */
export function colouredMentions(coloured: OcrText | null, merged: OcrText): OcrLine[] {
  const mentions: OcrLine[] = [];
  for (const l of coloured?.lines ?? []) {
    if (!/@[\p{L}\p{N}._]{4,}/u.test(l.text) || merged.lines.some((m) => m.text === l.text)) continue;
    if (l.confidence >= SURE_LINE_CONFIDENCE) {
      mentions.push(l);
      continue;
    }
    const text = compactText(l.text);
    const confirming = merged.lines.find((m) => {
      const tail = compactText(m.text);
      return m.confidence >= SURE_LINE_CONFIDENCE && tail.length >= 8 && text.endsWith(tail) && overlapArea(m.bbox, l.bbox) > 0.4 * Math.min(area(m.bbox), area(l.bbox));
    });
    if (confirming) mentions.push({ ...l, ...fromWords(l.words.map((w) => ({ ...w, confidence: Math.max(w.confidence, confirming.confidence) }))) });
  }
  return mentions;
}

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
   * the line's words of two letters or more (not an avatar's initial or a '⋮' beside them), cut out
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
        const named = line.words.filter((w) => (w.text.match(/\p{L}/gu) ?? []).length >= 2);
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
