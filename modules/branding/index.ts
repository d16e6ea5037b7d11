/**
 * The owner's brand (issue 15): colour and logo for the survey, the Thank You page, the reward email
 * and the flyer. This face is pure (the customer page's browser bundle uses it); the service that
 * stores a brand is `./server.ts`.
 */
export { brandPalette, checkBrandColor, contrastRatio, DEFAULT_BRAND_COLOR, MIN_CONTRAST, normaliseHex, type BrandColorCheck } from './color.ts';
export { brandOf, logoPath, type Brand } from './brand.ts';
