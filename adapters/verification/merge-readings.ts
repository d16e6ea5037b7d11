/**
 * Merging the OCR adapter's readings of one picture: the first pass, then the closer passes
 * (sparse text, masks, rows of ink, the screen of a photo, bands) adding what it missed or a
 * longer reading of a line it cut short, and the coloured mask's '@mentions' beside them. Split
 * from OcrScreenshotVerifier.ts (issue 28).
 */
import type { OcrLine, OcrText } from '../../modules/verification/server.ts';
import { fromWords, withoutIconNoise } from './ocr-text.ts';

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

const compactText = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}@]/gu, '');

/** First-pass lines read at least this confidently are blanked out before the closer passes. */
export const SURE_LINE_CONFIDENCE = 60;

/** A line's last word read under this confidence may be a stub of what follows (see `mergeReadings`). */
const STUB_CONFIDENCE = 75;
/** Whether a line ends in such a stub ('Best brunch spot, tf', 'SO sam.obrie'). */
export const endsInStub = (l: OcrLine) => (l.words.at(-1)?.confidence ?? 100) < STUB_CONFIDENCE;
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
