import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, processImageUpload, UPLOAD_MESSAGES, type ImageUploadResult } from './images.ts';

// Every test image is generated here; nothing binary is committed.

function canvas(width: number, height: number, background = '#3366cc', channels: 3 | 4 = 3) {
  return sharp({ create: { width, height, channels, background } });
}

/** A PNG written by hand, so a test can state any header it likes (e.g. a bomb) in a few kilobytes. */
function handMadePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let crc = 0xffffffff;
    for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  // 1-bit greyscale, every pixel black: 20000x20000 is 50 MB of rows that deflate to ~50 KB,
  // and 400 megapixels (1.2 GB as RGB) once decoded.
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 400x200 JPEG whose EXIF says "rotate 90° clockwise to display" (orientation 6) and where it was taken. */
async function phoneJpegWithGps(): Promise<Buffer> {
  // A red marker in the stored top-left corner: once oriented it must sit top-right.
  const marker = await canvas(40, 40, '#ff0000').png().toBuffer();
  return canvas(400, 200, '#ffffff')
    .composite([{ input: marker, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'RewardLoopCam', Model: 'TestPhone', ImageDescription: 'SECRET-DESCRIPTION' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 1234/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3900/100' },
    })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">SECRET-XMP</rdf:RDF></x:xmpmeta>')
    .toBuffer();
}

async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

function expectOk(result: ImageUploadResult) {
  if (!result.ok) throw new Error(`expected an accepted image, got ${result.status} ${result.message}`);
  return result.image;
}

describe('processImageUpload: accepted images are re-encoded', () => {
  it.each([
    { name: 'PNG with alpha', make: () => canvas(320, 240, '#22aa4480', 4).png().toBuffer() },
    { name: 'JPEG', make: () => canvas(320, 240).jpeg().toBuffer() },
    { name: 'WebP', make: () => canvas(320, 240, '#aa2244').webp({ lossless: true }).toBuffer() },
  ])('$name comes out as a fresh WebP with its hash', async ({ make }) => {
    const input = await make();
    const image = expectOk(await processImageUpload(input));

    expect(image.contentType).toBe('image/webp');
    expect(await fileTypeFromBuffer(image.data)).toMatchObject({ mime: 'image/webp' });
    expect([image.width, image.height]).toEqual([320, 240]);
    expect(image.sha256).toBe(createHash('sha256').update(image.data).digest('hex'));
    expect(image.data.equals(input)).toBe(false);
    const meta = await sharp(image.data).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
  });

  it('the same upload gives the same bytes and hash (so a re-upload can be recognised)', async () => {
    const input = await canvas(200, 100).png().toBuffer();
    const a = expectOk(await processImageUpload(input));
    const b = expectOk(await processImageUpload(input));
    expect(b.sha256).toBe(a.sha256);
  });

  it('can write JPEG instead, with transparency flattened onto white', async () => {
    const input = await canvas(50, 50, '#00000000', 4).png().toBuffer();
    const image = expectOk(await processImageUpload(input, { format: 'jpeg' }));
    expect(image.contentType).toBe('image/jpeg');
    expect(await fileTypeFromBuffer(image.data)).toMatchObject({ mime: 'image/jpeg' });
    const [r, g, b] = await pixel(image.data, 25, 25);
    expect(Math.min(r, g, b)).toBeGreaterThan(245);
  });
});

describe('processImageUpload: metadata and orientation', () => {
  it('applies EXIF orientation 6, then strips EXIF (GPS included), XMP and ICC', async () => {
    const input = await phoneJpegWithGps();
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.includes('RewardLoopCam')).toBe(true);
    expect(before.exif?.includes('N\0')).toBe(true); // the GPS latitude reference is really there

    const image = expectOk(await processImageUpload(input));

    expect([image.width, image.height]).toEqual([200, 400]); // rotated, not just relabelled
    const after = await sharp(image.data).metadata();
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    for (const secret of ['Exif', 'RewardLoopCam', 'TestPhone', 'SECRET-DESCRIPTION', 'SECRET-XMP', 'GPS']) {
      expect(image.data.includes(secret), secret).toBe(false);
    }
    // Orientation 6 turns the stored top-left corner into the displayed top-right one.
    const [tr, tg, tb] = await pixel(image.data, 190, 10);
    expect(tr).toBeGreaterThan(200);
    expect(Math.max(tg, tb)).toBeLessThan(60);
    const topLeft = await pixel(image.data, 10, 10);
    expect(Math.min(...topLeft)).toBeGreaterThan(200);
  });

  it('converts a wide-gamut (Display P3) image to sRGB and drops its profile', async () => {
    const input = await canvas(64, 64, '#ff0000').withIccProfile('p3').png().toBuffer();
    expect((await sharp(input).metadata()).icc).toBeDefined();
    const image = expectOk(await processImageUpload(input));
    expect((await sharp(image.data).metadata()).icc).toBeUndefined();
  });

  it('drops bytes smuggled after the image data', async () => {
    const png = await canvas(64, 64).png().toBuffer();
    const input = Buffer.concat([png, Buffer.from('<?php system($_GET["c"]); ?>')]);
    const image = expectOk(await processImageUpload(input));
    expect(image.data.includes('<?php')).toBe(false);
  });
});

describe('processImageUpload: size of the stored image', () => {
  it.each([
    { input: [4000, 3000], output: [1600, 1200] },
    { input: [3000, 4000], output: [1200, 1600] },
    { input: [1290, 2796], output: [738, 1600] }, // an iPhone screenshot
    { input: [1600, 900], output: [1600, 900] },
    { input: [100, 100], output: [100, 100] }, // never enlarged
    { input: [1, 1], output: [1, 1] },
  ])('$input.0x$input.1 becomes $output.0x$output.1', async ({ input, output }) => {
    const bytes = await canvas(input[0]!, input[1]!).png().toBuffer();
    const image = expectOk(await processImageUpload(bytes));
    expect([image.width, image.height]).toEqual(output);
    const meta = await sharp(image.data).metadata();
    expect([meta.width, meta.height]).toEqual(output);
  });
});

describe('processImageUpload: refusals', () => {
  const unsupported = UPLOAD_MESSAGES.unsupportedType;
  it.each([
    { name: 'a text file named .png', make: async () => Buffer.from('just some notes, saved as screenshot.png\n') },
    {
      name: 'an SVG with an XML declaration',
      make: async () =>
        Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
    },
    { name: 'a bare SVG', make: async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') },
    { name: 'a GIF', make: () => canvas(16, 16).gif().toBuffer() },
    { name: 'a TIFF', make: () => canvas(16, 16).tiff().toBuffer() },
    { name: 'an AVIF', make: () => canvas(16, 16).avif().toBuffer() },
    {
      name: 'a HEIC (iPhone photo)',
      make: async () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(256)]),
    },
    { name: 'a PDF renamed .png', make: async () => Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n') },
  ])('$name -> 415', async ({ make }) => {
    expect(await processImageUpload(await make())).toEqual({ ok: false, status: 415, code: 'unsupported_type', message: unsupported });
  });

  it('an empty file -> 400', async () => {
    expect(await processImageUpload(new Uint8Array(0))).toMatchObject({ ok: false, status: 400, code: 'empty' });
  });

  it('10 MB + 1 byte -> 413, exactly 10 MB is accepted', async () => {
    const png = await canvas(64, 64).png().toBuffer();
    const exactly = Buffer.alloc(MAX_UPLOAD_BYTES);
    png.copy(exactly); // a valid PNG padded with zeros after its end
    expectOk(await processImageUpload(exactly));

    const oneMore = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    png.copy(oneMore);
    expect(await processImageUpload(oneMore)).toEqual({
      ok: false,
      status: 413,
      code: 'too_large',
      message: 'This image is larger than 10 MB. Please upload a smaller screenshot.',
    });
    expect(await processImageUpload(Buffer.alloc(20 * 1024 * 1024))).toMatchObject({ status: 413 });
  });

  it.each([
    {
      name: 'a truncated JPEG',
      make: async () => {
        const jpeg = await canvas(800, 600, '#884422').jpeg().toBuffer();
        return jpeg.subarray(0, Math.floor(jpeg.length / 2));
      },
    },
    {
      name: 'a truncated PNG',
      make: async () => {
        const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
          .png()
          .toBuffer();
        return png.subarray(0, Math.floor(png.length / 2));
      },
    },
    {
      name: 'a WebP with garbage for pixels',
      make: async () => {
        const webp = await canvas(300, 300).webp().toBuffer();
        const broken = Buffer.from(webp);
        broken.fill(0xab, 40); // keep RIFF/WEBP and the frame header, wreck the bitstream
        return broken;
      },
    },
    {
      name: 'a PNG header with no pixel data after it',
      make: async () => (await canvas(300, 300).png().toBuffer()).subarray(0, 8 + 25), // signature + IHDR chunk
    },
  ])('$name -> 400', async ({ make }) => {
    expect(await processImageUpload(await make())).toEqual({
      ok: false,
      status: 400,
      code: 'unreadable',
      message: "We couldn't read this image. Please upload a different screenshot.",
    });
  });

  it('a decompression bomb (20000x20000 PNG of one colour, ~50 KB) -> 400 from its header, fast', async () => {
    const bomb = handMadePng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);

    const started = performance.now();
    const result = await processImageUpload(bomb);
    const elapsed = performance.now() - started;

    expect(result).toMatchObject({ ok: false, status: 400, code: 'too_many_pixels' });
    expect(!result.ok && result.message).toMatch(/more than 40 megapixels/);
    // Decoding 400 megapixels takes seconds and over a gigabyte; reading a header takes milliseconds.
    expect(elapsed).toBeLessThan(500);
  });

  it('the pixel limit counts width x height and is inclusive', async () => {
    const bytes = await canvas(100, 50).png().toBuffer();
    expectOk(await processImageUpload(bytes, { maxPixels: 5000 }));
    expect(await processImageUpload(bytes, { maxPixels: 4999 })).toMatchObject({ status: 400, code: 'too_many_pixels' });
  });
});

describe('processImageUpload: under load', () => {
  it('many uploads at once all finish, each with its own result', async () => {
    const inputs = await Promise.all(
      ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'].map((colour, i) =>
        canvas(2000 + i * 10, 1500, colour).jpeg().toBuffer(),
      ),
    );
    const results = await Promise.all([...inputs.map((bytes) => processImageUpload(bytes)), processImageUpload(Buffer.from('nope'))]);
    const images = results.slice(0, -1).map(expectOk);
    expect(new Set(images.map((image) => image.sha256)).size).toBe(inputs.length);
    expect(images.every((image) => image.width === 1600)).toBe(true);
    expect(results.at(-1)).toMatchObject({ ok: false, status: 415 });
  });
});
