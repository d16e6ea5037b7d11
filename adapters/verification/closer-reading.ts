/**
 * The closer reading's images: what OCR reads again when the first pass missed something. The page
 * with the text already read painted out, masks of white, coloured and light text, rows of ink cut
 * out (outlined labels, rows of stars painted out), the screen cut out of a photo, three bands of a
 * photo, the top tenth enlarged, and lines cut short read again in whiteness. Made from one decoded
 * screenshot (`closerImages`, preprocess.ts). Split from preprocess.ts (issue 28).
 */
import sharp from 'sharp';
import { inkRows, outlinedLabels, withoutStars, type InkRow } from './ink-rows.ts';
import { paintWhite, type Box, type Rgb } from './pixels.ts';
import { screenCrop, type ScreenCrop } from './screen-finder.ts';
import { colouredTextMask, lightTextMask, whiteTextMask } from './text-masks.ts';

/** How much a line cut short is enlarged (over the OCR size) to be read again in whiteness. */
export const WHITE_ROW_SCALE = 3;

/** Makes the images of the closer reading (see `closerImages`). */
export type CloserImages = (
  blank: readonly Box[],
  lineHeight: number,
  options?: { bands?: boolean; stubs?: readonly Box[] },
) => Promise<{ grey: Buffer; whiteText: Buffer; colouredText: Buffer; lightText: Buffer; rows: InkRow[]; screen: ScreenCrop | null; bands: InkRow[]; top: Buffer[]; whiteRows: InkRow[] }>;

/**
 * What the closer reading is made from, as `decodeScreenshot` has it: the decoded pixels (`raw`, and
 * as `rgb`), the small copy and the screen found in it, the scale to OCR size and the greyscale OCR
 * image before it was written as PNG.
 */
export type CloserSource = {
  raw: { data: Buffer };
  rgb: Rgb;
  small: Rgb;
  region: (Box & { tilt: number }) | null;
  scale: number;
  ocrGrey: Buffer;
  ocrWidth: number;
  ocrHeight: number;
};

export function closerImages({ raw, rgb, small, region, scale, ocrGrey, ocrWidth, ocrHeight }: CloserSource): CloserImages {
  const { width, height } = rgb;
  const rawInput = { raw: { width, height, channels: 3 as const } };
  const ocrRaw = { raw: { width: ocrWidth, height: ocrHeight, channels: 1 as const } };
  const png = (pixels: Buffer) => sharp(pixels, ocrRaw).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  return async (blank, lineHeight, options = {}) => {
    const grey = Buffer.from(ocrGrey);
    paintWhite(grey, ocrWidth, ocrHeight, blank);
    const pad = Math.round(lineHeight / 3);
    // Whole rows, then the right part alone: a profile's buttons sit right of its picture, which
    // would otherwise join them into one band too tall to be a line.
    const whole = inkRows(grey, ocrWidth, ocrHeight, lineHeight);
    const right = inkRows(grey, ocrWidth, ocrHeight, lineHeight, 8, Math.round(ocrWidth * 0.4)).filter(
      (box) => !whole.some((w) => w.y0 <= box.y0 && w.y1 >= box.y1),
    );
    const bands = [...whole, ...right].slice(0, 10);
    // ... and the labels of outlined buttons in them, cut inside their outline.
    const labels = bands.flatMap((box) => outlinedLabels(grey, ocrWidth, box, lineHeight)).slice(0, 4);
    // ... and the rows with rating stars once more, the stars painted out (the date beside them).
    const colour = scale === 1 ? raw.data : await sharp(raw.data, rawInput).resize(ocrWidth, ocrHeight, { fit: 'fill' }).raw().toBuffer();
    const starless = inkRows(grey, ocrWidth, ocrHeight, lineHeight, 40).flatMap((box) => {
      const painted = withoutStars(grey, colour, ocrWidth, box, lineHeight);
      return painted ? [{ box, pixels: painted }] : [];
    });
    const rows = await Promise.all(
      [...[...bands, ...labels].map((box) => ({ box, pixels: grey })), ...starless.slice(0, 4)].map(async ({ box, pixels }) => {
        const left = Math.max(0, box.x0 - pad);
        const top = Math.max(0, box.y0 - pad);
        const w = Math.min(ocrWidth, box.x1 + pad) - left;
        const h = Math.min(ocrHeight, box.y1 + pad) - top;
        return { image: await sharp(pixels, ocrRaw).extract({ left, top, width: w, height: h }).png().toBuffer(), left, top };
      }),
    );
    let mask = sharp(whiteTextMask(rgb), { raw: { width, height, channels: 1 } });
    if (scale !== 1) mask = mask.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
    const white = await mask.toColourspace('b-w').raw().toBuffer();
    paintWhite(white, ocrWidth, ocrHeight, blank);
    let colouredMask = sharp(colouredTextMask(rgb), { raw: { width, height, channels: 1 } });
    if (scale !== 1) colouredMask = colouredMask.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
    const coloured = await colouredMask.toColourspace('b-w').raw().toBuffer();
    // Light text over a photo or a gradient (a story's author, a video's caption where the picture
    // behind it is pale): pixels clearly lighter than their surroundings, whatever their colour
    // (not blanked: the first pass often stops such a line where the picture behind turns pale).
    const light = await sharp(raw.data, rawInput).greyscale().resize(ocrWidth, ocrHeight, { fit: 'fill' }).raw().toBuffer();
    // One channel out ('b-w'): sharp writes a blurred one-channel image as sRGB, three bytes a
    // pixel, and compared byte for byte the mask matched each pixel with another part of the
    // picture (the pale middle of a video black, its white '@bluedoorcafe' overlay lost).
    const around = await sharp(light, ocrRaw).blur(Math.max(4, lineHeight * 0.3)).toColourspace('b-w').raw().toBuffer();
    const [greyPng, whitePng, colouredPng, lightPng, screen] = await Promise.all([
      png(grey),
      png(white),
      png(coloured),
      png(lightTextMask(light, around)),
      screenCrop(rgb, small, scale, region),
    ]);
    // When asked (the first pass read next to nothing: a photo of a screen, whose frame and desk
    // defeat the whole page's layout analysis, and whose screen may not be found where its middle
    // is pictures), the image in three overlapping bands.
    const pages =
      options.bands
        ? await Promise.all(
            [0, 0.25, 0.5].map(async (from) => {
              const top = Math.round(ocrHeight * from);
              const band = Math.min(ocrHeight - top, Math.round(ocrHeight / 2));
              return { image: await sharp(ocrGrey, ocrRaw).extract({ left: 0, top, width: ocrWidth, height: band }).png().toBuffer(), left: 0, top };
            }),
          )
        : [];
    // The top tenth of the screen enlarged twice (OCR size), contrast stretched: a story's
    // or a video's author row, small light text with a shadow over a picture, which a whole-page
    // reading loses ('jose.alvarez 5h' over a pale sky).
    const topRaw = Math.max(1, Math.round(height * 0.1));
    const topHeight = Math.max(1, Math.round(topRaw * scale));
    const topBand = () =>
      sharp(raw.data, rawInput)
        .extract({ left: 0, top: 0, width, height: topRaw })
        .greyscale()
        .resize(ocrWidth * 2, topHeight * 2, { fit: 'fill' });
    const top = [await topBand().normalise().png().toBuffer()];
    // Lines cut short (`stubs`: their last word read unsure), from their start to the right edge,
    // in whiteness (255 minus the darkest channel: white text stands out of any coloured picture,
    // 'sam.obrien 38m' over a pale tan one), enlarged WHITE_ROW_SCALE times (OCR size).
    const whiteRows = await Promise.all(
      (options.stubs ?? []).slice(0, 3).map(async (box) => {
        const pad = Math.round((box.y1 - box.y0) / 3);
        const x0 = Math.max(0, Math.floor((box.x0 - pad) / scale));
        const y0 = Math.max(0, Math.floor((box.y0 - pad) / scale));
        const y1 = Math.min(height, Math.ceil((box.y1 + pad) / scale));
        const w = width - x0;
        const h = Math.max(1, y1 - y0);
        const row = await sharp(raw.data, rawInput).extract({ left: x0, top: y0, width: w, height: h }).raw().toBuffer();
        const whiteness = Buffer.alloc(w * h);
        for (let i = 0, j = 0; i < whiteness.length; i++, j += 3) whiteness[i] = 255 - Math.min(row[j]!, row[j + 1]!, row[j + 2]!);
        const k = scale * WHITE_ROW_SCALE;
        const image = await sharp(whiteness, { raw: { width: w, height: h, channels: 1 } })
          .resize(Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k)), { kernel: 'lanczos3', fit: 'fill' })
          .normalise()
          .png()
          .toBuffer();
        return { image, left: x0 * scale, top: y0 * scale };
      }),
    );
    return { grey: greyPng, whiteText: whitePng, colouredText: colouredPng, lightText: lightPng, rows, screen, bands: pages, top, whiteRows };
  };
}
