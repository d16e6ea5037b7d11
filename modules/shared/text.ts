/** Letters that Unicode decomposition leaves alone but have a common ASCII spelling. */
const ASCII_FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/**
 * Text folded for matching and slugs: lowercase, accents removed ('José' -> 'jose'), and the letters
 * decomposition leaves alone spelled in ASCII ('Straße' -> 'strasse'). Pure; the one folding of the
 * code base (OCR matching in modules/verification, flyer file names in modules/sharing).
 */
export function foldText(value: string): string {
  return String(value ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => ASCII_FOLD[c] ?? c);
}
