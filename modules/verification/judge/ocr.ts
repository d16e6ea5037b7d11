/**
 * What the adapters hand over to the judge: OCR lines with word boxes and colours, star rows, and
 * the line geometry (a line's height, the gap between two lines) the layout rules measure with.
 */



// ---------------------------------------------------------------------------------------------
// What the adapters hand over

export type Box = { x0: number; y0: number; x1: number; y1: number };
export type Rgb = { r: number; g: number; b: number };
/**
 * `fill`: the colour behind the word (the adapter samples it for words that may be a button:
 * Follow, Following, Friends, Liked...), so a filled call-to-action button can be told from a plain one.
 */
export type OcrWord = { text: string; confidence: number; bbox: Box; fill?: Rgb };
export type OcrLine = { text: string; confidence: number; bbox: Box; words: OcrWord[] };
/** OCR output in reading order; coordinates in the pixels of the image given to OCR; `background` the page's commonest colour. */
export type OcrText = { lines: OcrLine[]; width: number; height: number; background?: Rgb };

/** A row of five star shapes found in the pixels: its vertical centre and how many are filled. */
export type StarRow = { y: number; filled: number };

/** Builds an OcrText from plain lines (for tests and for adapters without boxes): one line per row, `lineHeight` apart. */
export function ocrFromText(text: string, lineHeight = 50): OcrText {
  const rows = text.split('\n');
  const lines: OcrLine[] = [];
  rows.forEach((row, index) => {
    if (!row.trim()) return;
    const y0 = index * lineHeight;
    let x = 0;
    const lineWords: OcrWord[] = row
      .trim()
      .split(/\s+/)
      .map((w) => {
        const word = { text: w, confidence: 90, bbox: { x0: x, y0, x1: x + w.length * 20, y1: y0 + lineHeight - 10 } };
        x += (w.length + 1) * 20;
        return word;
      });
    lines.push({ text: row.trim(), confidence: 90, bbox: { x0: 0, y0, x1: x, y1: y0 + lineHeight - 10 }, words: lineWords });
  });
  return { lines, width: 1080, height: Math.max(1, rows.length) * lineHeight };
}

/** The median height of a line of text. */
export function lineHeight(ocr: OcrText): number {
  const heights = ocr.lines.map((l) => l.bbox.y1 - l.bbox.y0).sort((x, y) => x - y);
  return heights[Math.floor(heights.length / 2)] ?? 0;
}

/** Vertical gap between two lines in the image (0 when they overlap). */
export function gap(a: OcrLine, b: OcrLine): number {
  return Math.max(0, Math.max(a.bbox.y0, b.bbox.y0) - Math.min(a.bbox.y1, b.bbox.y1));
}
