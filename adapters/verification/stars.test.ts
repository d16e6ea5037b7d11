import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { goldStars, yelpStars } from '../../tests/fixtures/screenshots/generate.ts';
import { findStarRows } from './stars.ts';

/** A 540-px-wide white strip drawn by `draw`, as the RGB the star counter gets. */
function rgbOf(draw: (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void, width = 540, height = 200) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  draw(ctx);
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    data[j] = rgba[i]!;
    data[j + 1] = rgba[i + 1]!;
    data[j + 2] = rgba[i + 2]!;
  }
  return { data, width, height };
}

describe('findStarRows', () => {
  it.each([1, 2, 3, 4, 5])('counts %i gold stars out of five', (filled) => {
    const rows = findStarRows(rgbOf((ctx) => goldStars(ctx, 20, 100, 20, filled)));
    expect(rows).toEqual([{ y: expect.closeTo(100, -1) as number, filled }]);
  });

  it.each([1, 3, 5])('counts %i Yelp boxes out of five', (filled) => {
    const rows = findStarRows(rgbOf((ctx) => yelpStars(ctx, 20, 80, 24, filled)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.filled).toBe(filled);
  });

  it('counts gold stars on a dark background', () => {
    const rows = findStarRows(
      rgbOf((ctx) => {
        ctx.fillStyle = '#202124';
        ctx.fillRect(0, 0, 540, 200);
        goldStars(ctx, 20, 100, 20, 3, '#5f6368');
      }),
    );
    expect(rows.map((r) => r.filled)).toEqual([3]);
  });

  it("counts Yelp boxes photographed off a dark-mode screen: dimmer red, a dark grey empty box, its star blurred small", () => {
    const box = (ctx: Parameters<Parameters<typeof rgbOf>[0]>[0], x: number, colour: string, star: number) => {
      ctx.fillStyle = colour;
      ctx.fillRect(x, 80, 24, 24);
      ctx.fillStyle = '#f4f1f0';
      ctx.fillRect(x + 12 - star / 2, 92 - star / 2, star, star);
    };
    const rows = findStarRows(
      rgbOf((ctx) => {
        ctx.fillStyle = '#232323';
        ctx.fillRect(0, 0, 540, 200);
        for (let i = 0; i < 4; i++) box(ctx, 20 + i * 30, '#d67c60', 11);
        box(ctx, 140, '#3a3a3a', 7);
      }),
    );
    expect(rows.map((r) => r.filled)).toEqual([4]);
  });

  it('skips an average with a part-filled star, keeps the review row', () => {
    const rows = findStarRows(
      rgbOf((ctx) => {
        goldStars(ctx, 20, 40, 16, 4.7);
        goldStars(ctx, 20, 140, 20, 2);
      }),
    );
    expect(rows.map((r) => r.filled)).toEqual([2]);
  });

  it('finds nothing without a row of five', () => {
    expect(findStarRows(rgbOf(() => {}))).toEqual([]);
    // Four stars only, and six stars: neither is a rating row.
    expect(
      findStarRows(
        rgbOf((ctx) => {
          goldStars(ctx, 20, 50, 20, 5);
          goldStars(ctx, 20 + 5 * 23, 50, 20, 1);
        }),
      ),
    ).toEqual([]);
    // Gold blobs that are not star-sized.
    expect(
      findStarRows(
        rgbOf((ctx) => {
          ctx.fillStyle = '#fbbc04';
          ctx.fillRect(10, 10, 300, 60);
        }),
      ),
    ).toEqual([]);
  });
});
