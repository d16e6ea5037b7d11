/**
 * An owner's brand colour (issue 15): a hex colour that carries white text (buttons, the progress
 * bar, the claim box) at WCAG 2.2 AA contrast, 4.5:1 or more. A colour too light for that is refused
 * with a darker shade of the same hue that passes. Pure: the builder and the server share it.
 */

export const MIN_CONTRAST = 4.5;
export const DEFAULT_BRAND_COLOR = '#4f46e5';

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** '#AbC' or 'aabbcc' -> '#aabbcc'; null when it is not a hex colour. */
export function normaliseHex(input: string): string | null {
  const match = HEX.exec(input.trim());
  if (!match?.[1]) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return `#${hex.toLowerCase()}`;
}

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of a '#rrggbb' colour. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two '#rrggbb' colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `hex` mixed with `other` by `amount` (0: hex, 1: other). */
function mix(hex: string, other: string, amount: number): string {
  const a = rgb(hex);
  const b = rgb(other);
  return toHex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as Rgb);
}

/** The lightest shade of `hex` (mixed with black) that carries white text at 4.5:1. */
export function darkerPassingShade(hex: string): string {
  for (let step = 0; step <= 100; step += 1) {
    const shade = mix(hex, '#000000', step / 100);
    if (contrastRatio(shade, '#ffffff') >= MIN_CONTRAST) return shade;
  }
  return '#000000';
}

export type BrandColorCheck = { ok: true; color: string } | { ok: false; message: string; suggestion?: string };

/** The owner's input checked: a hex colour dark enough for white text, or a message that says why not and what to use. */
export function checkBrandColor(input: string): BrandColorCheck {
  const color = normaliseHex(input);
  if (!color) return { ok: false, message: 'Enter a colour as a hex code, like #1f7a4d.' };
  const ratio = contrastRatio(color, '#ffffff');
  if (ratio >= MIN_CONTRAST) return { ok: true, color };
  const suggestion = darkerPassingShade(color);
  return {
    ok: false,
    message: `${color} is too light for white text on buttons (contrast ${ratio.toFixed(1)}:1, at least ${MIN_CONTRAST}:1 is needed to be readable). Try ${suggestion}, a darker shade of it.`,
    suggestion,
  };
}

/**
 * The shades the pages use, as CSS custom properties that replace the theme's brand colours
 * (app/tailwind.css: --color-brand-50 ... 800) inside the element they are set on.
 */
export function brandPalette(color: string): Record<string, string> {
  return {
    '--color-brand-50': mix(color, '#ffffff', 0.92),
    '--color-brand-100': mix(color, '#ffffff', 0.84),
    '--color-brand-600': color,
    '--color-brand-700': mix(color, '#000000', 0.15),
    '--color-brand-800': mix(color, '#000000', 0.3),
  };
}
