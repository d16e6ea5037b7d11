import { describe, expect, it } from 'vitest';
import { brandPalette, checkBrandColor, contrastRatio, darkerPassingShade, normaliseHex } from './color.ts';

describe('brand colour', () => {
  it('reads hex codes in the forms owners type', () => {
    expect(normaliseHex('#1F7A4D')).toBe('#1f7a4d');
    expect(normaliseHex('1f7a4d')).toBe('#1f7a4d');
    expect(normaliseHex(' #abc ')).toBe('#aabbcc');
    for (const bad of ['', 'green', '#12345', '#1234567', 'rgb(1,2,3)', '#ggg']) expect(normaliseHex(bad), bad).toBeNull();
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Known values (WebAIM's checker): #767676 on white is 4.54:1, #777777 is 4.48:1.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('takes a colour dark enough for white text and refuses a light one with a darker shade that passes', () => {
    expect(checkBrandColor('#4f46e5')).toEqual({ ok: true, color: '#4f46e5' });
    const yellow = checkBrandColor('#ffd400');
    expect(yellow.ok).toBe(false);
    if (yellow.ok) return;
    expect(yellow.message).toMatch(/^#ffd400 is too light for white text on buttons \(contrast 1\.\d:1, at least 4\.5:1/);
    expect(contrastRatio(yellow.suggestion!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(checkBrandColor(yellow.suggestion!).ok).toBe(true);
    expect(checkBrandColor('pink')).toEqual({ ok: false, message: 'Enter a colour as a hex code, like #1f7a4d.' });
  });

  it('suggests the lightest passing shade, and keeps shades ordered for the pages', () => {
    const shade = darkerPassingShade('#ff8800');
    expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const palette = brandPalette('#1f7a4d');
    expect(palette['--color-brand-600']).toBe('#1f7a4d');
    expect(contrastRatio(palette['--color-brand-700']!, '#ffffff')).toBeGreaterThan(contrastRatio('#1f7a4d', '#ffffff'));
    expect(contrastRatio(palette['--color-brand-700']!, palette['--color-brand-50']!)).toBeGreaterThanOrEqual(4.5);
  });
});
