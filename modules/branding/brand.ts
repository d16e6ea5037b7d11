export type Brand = { color: string | null; logoKey: string | null };

/** The brand fields of a business row, as every page and email reads them. */
export function brandOf(business: { brandColor?: string | null; brandLogoKey?: string | null }): Brand {
  return { color: business.brandColor ?? null, logoKey: business.brandLogoKey ?? null };
}

/** The public address of a business's logo; the key in the query changes with every new logo, so caches never show an old one. */
export function logoPath(businessId: string, logoKey: string | null): string | null {
  return logoKey ? `/brand/logo/${businessId}?v=${encodeURIComponent(logoKey.slice(-12, -4))}` : null;
}
