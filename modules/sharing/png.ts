/**
 * A minimal PNG writer (8-bit greyscale or RGB, no interlace, filter 0 on every row) with a pHYs
 * chunk so print dialogs know the intended resolution.
 *
 * Why not `canvas.encode('png')`: Skia's encoder tries every row filter at zlib level 6 and takes
 * ~580 ms for the 2550x3300 flyer on the project machine, which alone busts the 400 ms budget.
 * Our pages are flat colour and text, where filter 0 + zlib level 3 costs ~90 ms (including the
 * RGBA read-back) for a file ~20% larger (~0.8 MB). Deflate runs on libuv's thread pool in the
 * async variant, so the event loop only pays for the row copy.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflateAsync = promisify(zlib.deflate);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ZLIB_LEVEL = 3;

export type PngColor = 'gray' | 'rgb';

/** Scanlines ready for deflate: each row is a filter byte (0) followed by the row's samples. */
export type Scanlines = { width: number; height: number; color: PngColor; data: Buffer };

function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'ascii');
  body.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + body.length)) >>> 0, 8 + body.length);
  return out;
}

function assemble(lines: Scanlines, compressed: Buffer, dpi: number | undefined): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(lines.width, 0);
  ihdr.writeUInt32BE(lines.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = lines.color === 'gray' ? 0 : 2; // colour type
  // bytes 10-12: compression 0, filter method 0, no interlace
  const parts = [SIGNATURE, chunk('IHDR', ihdr)];
  if (dpi) {
    const phys = Buffer.alloc(9);
    const perMetre = Math.round(dpi / 0.0254);
    phys.writeUInt32BE(perMetre, 0);
    phys.writeUInt32BE(perMetre, 4);
    phys[8] = 1; // unit: metre
    parts.push(chunk('pHYs', phys));
  }
  parts.push(chunk('IDAT', compressed), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

function checkSize(lines: Scanlines): void {
  const channels = lines.color === 'gray' ? 1 : 3;
  if (!Number.isInteger(lines.width) || !Number.isInteger(lines.height) || lines.width < 1 || lines.height < 1) {
    throw new RangeError(`invalid PNG size ${lines.width}x${lines.height}`);
  }
  if (lines.data.length !== (lines.width * channels + 1) * lines.height) throw new RangeError('scanline buffer has the wrong length');
}

export function encodePng(lines: Scanlines, options: { dpi?: number } = {}): Buffer {
  checkSize(lines);
  return assemble(lines, zlib.deflateSync(lines.data, { level: ZLIB_LEVEL }), options.dpi);
}

export async function encodePngAsync(lines: Scanlines, options: { dpi?: number } = {}): Promise<Buffer> {
  checkSize(lines);
  return assemble(lines, await deflateAsync(lines.data, { level: ZLIB_LEVEL }), options.dpi);
}

/** RGBA pixels (as from getImageData, alpha ignored: draw on an opaque background) to RGB scanlines. */
export function rgbaToRgbScanlines(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Scanlines {
  if (rgba.length !== width * height * 4) throw new RangeError('RGBA buffer has the wrong length');
  const stride = width * 3 + 1;
  const data = Buffer.allocUnsafe(stride * height);
  for (let y = 0; y < height; y++) {
    let o = y * stride;
    data[o++] = 0;
    let s = y * width * 4;
    const end = s + width * 4;
    while (s < end) {
      data[o] = rgba[s]!;
      data[o + 1] = rgba[s + 1]!;
      data[o + 2] = rgba[s + 2]!;
      o += 3;
      s += 4;
    }
  }
  return { width, height, color: 'rgb', data };
}
