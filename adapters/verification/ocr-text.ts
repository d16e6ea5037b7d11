/**
 * OCR text as the OCR adapter reads it: tesseract's TSV turned into lines with words and boxes, a
 * cut-out's reading put back where the cut-out was, the colour behind a follow button's label, and
 * the scraps icons read as taken out. Split from OcrScreenshotVerifier.ts (issue 28).
 */
import type { OcrLine, OcrText } from '../../modules/verification/server.ts';
import { dominantColour } from './pixels.ts';
import type { DecodedScreenshot } from './preprocess.ts';

/** A line's text and confidence from its words (joined by spaces; their mean confidence). */
export function fromWords(words: OcrLine['words']): Pick<OcrLine, 'text' | 'confidence' | 'words'> {
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

/** An OCR reading of a cut-out moved back to where the cut-out was. */
export function offset(ocr: OcrText, left: number, top: number): OcrText {
  return placed(ocr, (x, y) => ({ x: x + left, y: y + top }));
}

/**
 * An OCR reading of a transformed cut-out (moved, scaled, turned) put back with `to`: each box keeps
 * its shape, scaled, about its mapped centre (a level line stays a level line of its own height).
 */
export function placed(ocr: OcrText, to: (x: number, y: number) => { x: number; y: number }): OcrText {
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

/** The box around boxes. */
export const boxOf = (boxes: readonly OcrLine['bbox'][]): OcrLine['bbox'] => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});
