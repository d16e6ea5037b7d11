/**
 * QR codes for the public survey link, generated in-house with `qrcode` (UX.md: no third-party
 * QR service: the customer's and the owner's data leave for no one). Both renderers draw from the
 * module matrix themselves so every module is a whole number of pixels (crisp, decodable edges)
 * and the output is exactly the size asked for.
 *
 * Error correction: level M (15% recovery) for on-screen codes and the 400x400 download: fewer
 * modules means bigger modules at a given size, which matters more on a phone photographing a
 * screen than damage does. The printed flyer uses Q (see flyer.ts).
 *
 * Server-only (PNG encoding uses node:zlib): call these from loaders and resource routes.
 */
import QRCode from 'qrcode';
import { encodePng } from './png.ts';
import { parseHttpUrl } from './urls.ts';

export type QrLevel = 'L' | 'M' | 'Q' | 'H';

/** Modules of quiet zone around the symbol, as ISO/IEC 18004 requires. */
export const QUIET_ZONE = 4;

/** A QR symbol: `size` x `size` modules, `dark[row * size + col]` is 1 for a dark module. */
export type QrMatrix = { size: number; version: number; dark: Uint8Array };

/** Longest link we encode; survey links are ~120 characters. Keeps codes scannable from paper. */
const MAX_URL_LENGTH = 1024;

/** The QR symbol for an http(s) link. Throws a TypeError for anything else. */
export function qrMatrix(url: string, level: QrLevel = 'M'): QrMatrix {
  parseHttpUrl(url, 'QR link');
  if (url.length > MAX_URL_LENGTH) throw new RangeError(`QR link is longer than ${MAX_URL_LENGTH} characters`);
  // Encode the string exactly as given (no normalisation), so a scan returns the same text.
  const code = QRCode.create(url, { errorCorrectionLevel: level });
  return { size: code.modules.size, version: code.version, dark: code.modules.data };
}

/** Horizontal runs of dark modules in a row, as [startColumn, length] pairs. */
export function darkRuns(m: QrMatrix, row: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let col = 0;
  while (col < m.size) {
    if (!m.dark[row * m.size + col]) {
      col++;
      continue;
    }
    const start = col;
    while (col < m.size && m.dark[row * m.size + col]) col++;
    runs.push([start, col - start]);
  }
  return runs;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export type QrSvgOptions = {
  /** width and height attributes in CSS pixels (the spec's views use 400); the viewBox is in modules. */
  size?: number;
  /** Accessible name. Defaults to a generic one: the page shows the link itself next to the code. */
  label?: string;
  level?: QrLevel;
};

/**
 * An inline SVG of the link's QR code: role="img" with an aria-label and a <title>, a white
 * background (so it stays scannable on a dark page) and no external references.
 */
export function qrSvg(url: string, options: QrSvgOptions = {}): string {
  const { size = 400, label = 'QR code for the survey link', level = 'M' } = options;
  if (!Number.isFinite(size) || size <= 0) throw new RangeError('QR size must be a positive number');
  const m = qrMatrix(url, level);
  const total = m.size + 2 * QUIET_ZONE;
  let d = '';
  for (let row = 0; row < m.size; row++) {
    for (const [col, len] of darkRuns(m, row)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h${len}v1h-${len}z`;
  }
  const name = escapeXml(label);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" width="${size}" height="${size}"` +
    ` role="img" aria-label="${name}" shape-rendering="crispEdges">` +
    `<title>${name}</title>` +
    `<rect width="${total}" height="${total}" fill="#ffffff"/>` +
    `<path fill="#000000" d="${d}"/>` +
    `</svg>`
  );
}

/** Largest whole-pixel module size that fits the symbol plus its quiet zone in `size` px. */
export function modulePixels(matrix: QrMatrix, size: number): number {
  return Math.floor(size / (matrix.size + 2 * QUIET_ZONE));
}

/**
 * A PNG of exactly `size` x `size` pixels (8-bit greyscale): the symbol centred with whole-pixel
 * modules; what is left over widens the quiet zone beyond its 4 modules.
 */
export function qrPng(url: string, size = 400): Buffer {
  if (!Number.isInteger(size) || size > 4096) throw new RangeError('QR size must be an integer up to 4096');
  const m = qrMatrix(url, 'M');
  const px = modulePixels(m, size);
  if (px < 1) throw new RangeError(`QR size ${size} is too small for this link (needs ${m.size + 2 * QUIET_ZONE} px)`);
  const offset = Math.floor((size - m.size * px) / 2);
  const stride = size + 1;
  const data = Buffer.alloc(stride * size, 0xff);
  for (let y = 0; y < size; y++) data[y * stride] = 0; // filter byte of each scanline
  for (let row = 0; row < m.size; row++) {
    const first = (offset + row * px) * stride;
    for (const [col, len] of darkRuns(m, row)) {
      data.fill(0, first + 1 + offset + col * px, first + 1 + offset + (col + len) * px);
    }
    for (let k = 1; k < px; k++) data.copy(data, first + k * stride, first, first + stride);
  }
  return encodePng({ width: size, height: size, color: 'gray', data });
}
