/**
 * The printable promotional flyer (spec section 9): a 2550 x 3300 PNG, US Letter at 300 dpi, with
 * the business name, survey title, the top (Gold) reward as the headline, the QR code, the link in
 * text, the three tier amounts with two decimals, how it works and a footer.
 *
 * Drawn with @napi-rs/canvas (Skia, prebuilt: no system Cairo) and DejaVu Sans from the
 * `dejavu-fonts-ttf` npm package, registered under our own family names so a machine's installed
 * fonts can never stand in (a server image has none; a laptop may have different ones).
 *
 * Everything is drawn inside a 0.5 in (150 px) margin: home and office printers cannot print to
 * the edge, and anything there would be cut.
 *
 * The fonts and the text fitting are in `flyer-text.ts`.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodePngAsync, rgbaToRgbScanlines } from './png.ts';
import { brandPalette } from '../branding/index.ts';
import { formatCents } from '../scoring/index.ts';
import { darkRuns, QUIET_ZONE, qrMatrix, type QrMatrix } from './qr.ts';
import { parseHttpUrl } from './urls.ts';
import { foldText } from '../shared/text.ts';
import { blockHeight, type Ctx, drawCentered, ensureFonts, fitText, MONO, setFont } from './flyer-text.ts';

export const FLYER_WIDTH = 2550;
export const FLYER_HEIGHT = 3300;
export const FLYER_DPI = 300;
/** Print-safe margin on every side, in pixels (0.5 in at 300 dpi). Nothing is drawn in it. */
export const FLYER_MARGIN = 150;

export const BRAND_INDIGO = '#4f46e5';
export const TIER_COLORS = { bronze: '#a0522d', silver: '#6b7280', gold: '#a16207' } as const;
export const FLYER_BACKGROUND = '#ffffff';

const INK = '#0f172a';
const INK_SOFT = '#334155';
const INK_MUTED = '#64748b';
const RULE = '#e2e8f0';
const INDIGO_PALE = '#e0e7ff';
const TIER_TINTS = { bronze: '#fbf4ef', silver: '#f6f7f9', gold: '#fdf8ea' } as const;


export type TierRewards = { bronze: number; silver: number; gold: number };

export type FlyerInput = {
  businessName: string;
  surveyTitle: string;
  /** The public survey link; the QR code encodes exactly this string. */
  url: string;
  /** Reward values in cents. */
  rewards: TierRewards;
  /** The highest tier the survey's questions can reach (issue 16): the headline's "up to" amount; default Gold. */
  topTier?: keyof TierRewards;
  /** The owner's brand colour ('#rrggbb', dark enough for white text); default RewardLoop's indigo. */
  brandColor?: string | null;
  /** The owner's logo (PNG bytes we stored), drawn above the business name. */
  logo?: Buffer | null;
};

const FILE_SUFFIX = '-flyer.png';
const MAX_FILE_NAME = 80;

/**
 * A download name from the survey title: ASCII, lowercase, words joined by hyphens, at most 80
 * characters, ending in `-flyer.png` ('Crumb & Co: Spring Survey!' -> 'crumb-and-co-spring-survey-flyer.png').
 * A title with nothing usable (empty, emoji, CJK) gives 'survey-flyer.png'.
 */
export function flyerFileName(surveyTitle: string): string {
  let slug = foldText(surveyTitle)
    .replace(/['’]/g, '') // "Joe's" -> 'joes'
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  slug = slug.replace(/(^|-)flyer$/, ''); // 'Spring flyer' -> 'spring-flyer.png', not 'spring-flyer-flyer.png'
  const room = MAX_FILE_NAME - FILE_SUFFIX.length;
  if (slug.length > room) {
    const cut = slug.slice(0, room + 1);
    const lastHyphen = cut.lastIndexOf('-');
    slug = (lastHyphen > room / 2 ? cut.slice(0, lastHyphen) : cut.slice(0, room)).replace(/-+$/, '');
  }
  return slug ? `${slug}${FILE_SUFFIX}` : 'survey-flyer.png';
}

/** Replaces control and format characters and runs of whitespace with single spaces. */
function cleanText(value: string): string {
  return String(value ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function checkInput(input: FlyerInput): { businessName: string; surveyTitle: string; url: string; rewards: TierRewards } {
  const businessName = cleanText(input.businessName);
  if (!businessName) throw new TypeError('businessName must not be empty');
  const surveyTitle = cleanText(input.surveyTitle) || 'Survey';
  parseHttpUrl(input.url, 'flyer url');
  for (const tier of ['bronze', 'silver', 'gold'] as const) {
    const cents = input.rewards?.[tier];
    if (!Number.isSafeInteger(cents) || cents < 0) throw new TypeError(`rewards.${tier} must be a non-negative integer number of cents`);
  }
  return { businessName, surveyTitle, url: input.url, rewards: input.rewards };
}

// ---------------------------------------------------------------------------------------------
// Drawing

function roundRect(ctx: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function drawQr(ctx: Ctx, m: QrMatrix, x: number, y: number, px: number): void {
  ctx.fillStyle = '#000000';
  for (let row = 0; row < m.size; row++) {
    for (const [col, len] of darkRuns(m, row)) ctx.fillRect(x + col * px, y + row * px, len * px, px);
  }
}

const CONTENT_LEFT = FLYER_MARGIN;
const CONTENT_WIDTH = FLYER_WIDTH - 2 * FLYER_MARGIN;
const CENTER_X = FLYER_WIDTH / 2;

/**
 * Height of the QR frame. The spec asks for a 400x400 QR (its on-screen size); on paper at
 * 300 dpi that would be 1.3 in, small for a code scanned from across a counter or off a wall.
 * The code is what the flyer is for, so it is the hero: up to 1200 px (4 in, modules ~1.5 mm),
 * shrinking only when a very long name or title needs the room, never below 900 px (3 in).
 */
const QR_FRAME_MAX = 1200;
const QR_FRAME_MIN = 900;
const QR_FRAME_BORDER = 14;

/**
 * Error correction Q (25% recovery) on paper, M on screens: a flyer on a counter gets creased,
 * splashed and taped over, and at this size the denser symbol still has ~1.5 mm modules.
 */
const FLYER_QR_LEVEL = 'Q';

const HOW_IT_WORKS = [
  'Scan the code with your phone camera',
  'Answer a few quick questions about your visit',
  'Earn points for a Bronze, Silver or Gold gift card',
];

export async function renderFlyer(input: FlyerInput): Promise<Buffer> {
  const { businessName, surveyTitle, url, rewards } = checkInput(input);
  const accent = input.brandColor && /^#[0-9a-f]{6}$/i.test(input.brandColor) ? input.brandColor : BRAND_INDIGO;
  const logo = input.logo ? await loadImage(input.logo).catch(() => null) : null;
  ensureFonts();
  const matrix = qrMatrix(url, FLYER_QR_LEVEL);

  const canvas = createCanvas(FLYER_WIDTH, FLYER_HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = FLYER_BACKGROUND;
  ctx.fillRect(0, 0, FLYER_WIDTH, FLYER_HEIGHT);

  // --- measure the flexible blocks first: the QR takes what they leave
  const name = fitText(ctx, businessName, { maxWidth: CONTENT_WIDTH, maxSize: 150, minSize: 84, maxLines: 2, weight: 700 });
  const title = fitText(ctx, surveyTitle, { maxWidth: CONTENT_WIDTH, maxSize: 80, minSize: 56, maxLines: 2 });
  const headline = fitText(ctx, `Earn up to ${formatCents(rewards[input.topTier ?? 'gold'])} in gift cards`, {
    maxWidth: CONTENT_WIDTH - 160,
    maxSize: 124,
    minSize: 72,
    maxLines: 1,
    weight: 700,
  });
  const link = fitText(ctx, url, { maxWidth: CONTENT_WIDTH - 100, maxSize: 50, minSize: 34, maxLines: 2, family: MONO, url: true });

  const NAME_LH = 1.14;
  const TITLE_LH = 1.25;
  const BAND_H = 330;
  const CAPTION_H = 80;
  const LINK_LH = 1.3;
  const TIERS_H = 280;
  const STEPS_H = 230;
  const FOOTER_H = 96;
  const LOGO_H = logo ? 220 : 0;
  const gaps = { afterLogo: logo ? 40 : 0, afterName: 16, afterTitle: 60, afterBand: 64, afterCaption: 28, afterQr: 26, afterLink: 64, afterTiers: 70, afterSteps: 50 };
  const fixed =
    LOGO_H +
    blockHeight(name, NAME_LH) +
    blockHeight(title, TITLE_LH) +
    BAND_H +
    CAPTION_H +
    blockHeight(link, LINK_LH) +
    TIERS_H +
    STEPS_H +
    FOOTER_H +
    Object.values(gaps).reduce((a, b) => a + b, 0);
  const available = FLYER_HEIGHT - 2 * FLYER_MARGIN - fixed;
  const frame = Math.max(QR_FRAME_MIN, Math.min(QR_FRAME_MAX, available));
  // Any height the QR did not take is shared out above and below the main blocks.
  const slack = Math.max(0, available - frame);
  const extra = Math.floor(slack / 4);

  let y = FLYER_MARGIN + extra;

  // --- header: the owner's logo, business name, survey title
  if (logo) {
    const scale = Math.min(LOGO_H / logo.height, CONTENT_WIDTH / 2 / logo.width);
    const w = logo.width * scale;
    const h = logo.height * scale;
    ctx.drawImage(logo, CENTER_X - w / 2, y + (LOGO_H - h) / 2, w, h);
    y += LOGO_H + gaps.afterLogo;
  }
  y += drawCentered(ctx, name, CENTER_X, y, NAME_LH, INK) + gaps.afterName;
  y += drawCentered(ctx, title, CENTER_X, y, TITLE_LH, INK_SOFT) + gaps.afterTitle;

  // --- headline band
  roundRect(ctx, CONTENT_LEFT, y, CONTENT_WIDTH, BAND_H, 56);
  ctx.fillStyle = accent;
  ctx.fill();
  const sub = fitText(ctx, 'Tell us about your visit and get a gift card by email', {
    maxWidth: CONTENT_WIDTH - 160,
    maxSize: 58,
    minSize: 44,
    maxLines: 1,
  });
  const bandContent = headline.size * 1.1 + 24 + sub.size * 1.2;
  let by = y + (BAND_H - bandContent) / 2;
  by += drawCentered(ctx, headline, CENTER_X, by, 1.1, '#ffffff') + 24;
  drawCentered(ctx, sub, CENTER_X, by, 1.2, accent === BRAND_INDIGO ? INDIGO_PALE : (brandPalette(accent)['--color-brand-100'] ?? '#ffffff'));
  y += BAND_H + gaps.afterBand + extra;

  // --- QR: caption, frame, symbol (quiet zone inside the frame)
  const caption = fitText(ctx, 'Scan with your phone camera', { maxWidth: CONTENT_WIDTH, maxSize: 64, minSize: 48, maxLines: 1, weight: 700 });
  drawCentered(ctx, caption, CENTER_X, y + (CAPTION_H - caption.size * 1.2) / 2, 1.2, accent);
  y += CAPTION_H + gaps.afterCaption;

  const frameX = Math.round(CENTER_X - frame / 2);
  ctx.lineWidth = QR_FRAME_BORDER;
  ctx.strokeStyle = accent;
  roundRect(ctx, frameX + QR_FRAME_BORDER / 2, y + QR_FRAME_BORDER / 2, frame - QR_FRAME_BORDER, frame - QR_FRAME_BORDER, 60);
  ctx.stroke();
  const inner = frame - 2 * QR_FRAME_BORDER;
  const px = Math.floor(inner / (matrix.size + 2 * QUIET_ZONE));
  if (px < 4) throw new RangeError('the link is too long to print as a scannable QR code');
  const symbol = matrix.size * px;
  drawQr(ctx, matrix, Math.round(CENTER_X - symbol / 2), Math.round(y + frame / 2 - symbol / 2), px);
  y += frame + gaps.afterQr;

  // --- the link in text, for people who would rather type it
  y += drawCentered(ctx, link, CENTER_X, y, LINK_LH, INK_SOFT) + gaps.afterLink + extra;

  // --- tier cards
  const cardGap = 48;
  const cardW = (CONTENT_WIDTH - 2 * cardGap) / 3;
  const tiers = [
    ['bronze', 'Bronze'],
    ['silver', 'Silver'],
    ['gold', 'Gold'],
  ] as const;
  tiers.forEach(([tier, label], i) => {
    const x = CONTENT_LEFT + i * (cardW + cardGap);
    roundRect(ctx, x + 5, y + 5, cardW - 10, TIERS_H - 10, 36);
    ctx.fillStyle = TIER_TINTS[tier];
    ctx.fill();
    ctx.lineWidth = 10;
    ctx.strokeStyle = TIER_COLORS[tier];
    ctx.stroke();
    const tierLabel = fitText(ctx, label.toUpperCase(), { maxWidth: cardW - 80, maxSize: 54, minSize: 40, maxLines: 1, weight: 700 });
    drawCentered(ctx, tierLabel, x + cardW / 2, y + 36, 1.2, TIER_COLORS[tier]);
    const amount = fitText(ctx, formatCents(rewards[tier]), { maxWidth: cardW - 80, maxSize: 120, minSize: 60, maxLines: 1, weight: 700 });
    drawCentered(ctx, amount, x + cardW / 2, y + 110, 1.1, TIER_COLORS[tier]);
  });
  y += TIERS_H + gaps.afterTiers;

  // --- how it works: three numbered steps
  const heading = fitText(ctx, 'How it works', { maxWidth: CONTENT_WIDTH, maxSize: 56, minSize: 56, maxLines: 1, weight: 700 });
  ctx.textAlign = 'left';
  setFont(ctx, heading.size, 700);
  ctx.fillStyle = INK;
  ctx.textBaseline = 'middle';
  ctx.fillText(heading.lines[0]!, CONTENT_LEFT, y + 34);
  const stepsTop = y + 100;
  const circle = 96;
  HOW_IT_WORKS.forEach((text, i) => {
    const x = CONTENT_LEFT + i * (cardW + cardGap);
    ctx.beginPath();
    ctx.arc(x + circle / 2, stepsTop + circle / 2, circle / 2, 0, Math.PI * 2);
    ctx.fillStyle = accent;
    ctx.fill();
    setFont(ctx, 56, 700);
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.fillText(String(i + 1), x + circle / 2, stepsTop + circle / 2 + 2);
    const textX = x + circle + 28;
    const step = fitText(ctx, text, { maxWidth: cardW - circle - 28, maxSize: 44, minSize: 36, maxLines: 3 });
    setFont(ctx, step.size, 400);
    ctx.fillStyle = INK_SOFT;
    ctx.textAlign = 'left';
    const lh = step.size * 1.25;
    const top = stepsTop + Math.max(0, (circle - lh * step.lines.length) / 2);
    step.lines.forEach((line, k) => ctx.fillText(line, textX, top + lh * k + lh / 2));
  });
  y += STEPS_H + gaps.afterSteps;

  // --- footer, pinned to the bottom margin
  const footerTop = FLYER_HEIGHT - FLYER_MARGIN - FOOTER_H;
  ctx.fillStyle = RULE;
  ctx.fillRect(CONTENT_LEFT, footerTop, CONTENT_WIDTH, 4);
  const footerY = footerTop + (FOOTER_H + 4) / 2;
  const powered = 'Powered by ';
  setFont(ctx, 40, 700);
  const brandW = ctx.measureText('RewardLoop').width;
  setFont(ctx, 40, 400);
  const poweredW = ctx.measureText(powered).width;
  const note = fitText(ctx, 'Gift cards are sent by email after the survey.', {
    maxWidth: CONTENT_WIDTH - poweredW - brandW - 60,
    maxSize: 40,
    minSize: 30,
    maxLines: 1,
  });
  setFont(ctx, note.size, 400);
  ctx.fillStyle = INK_MUTED;
  ctx.textAlign = 'left';
  ctx.fillText(note.lines[0]!, CONTENT_LEFT, footerY);
  const right = CONTENT_LEFT + CONTENT_WIDTH;
  setFont(ctx, 40, 700);
  ctx.fillStyle = BRAND_INDIGO;
  ctx.textAlign = 'right';
  ctx.fillText('RewardLoop', right, footerY);
  setFont(ctx, 40, 400);
  ctx.fillStyle = INK_MUTED;
  ctx.fillText(powered, right - brandW, footerY);

  const pixels = ctx.getImageData(0, 0, FLYER_WIDTH, FLYER_HEIGHT).data;
  return encodePngAsync(rgbaToRgbScanlines(pixels, FLYER_WIDTH, FLYER_HEIGHT), { dpi: FLYER_DPI });
}
