import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { storeImageUpload, type BlobStore, type StoredBlob } from '../uploads/server.ts';
import { brandOf, type Brand } from './brand.ts';
import { checkBrandColor } from './color.ts';

/** A logo is small on every page: 512 px on its longest side is plenty (a 2x header of 48 px, the flyer's 240 px). */
export const LOGO_MAX_SIDE = 512;
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

export type BrandUpdate =
  | { ok: true; brand: Brand }
  | { ok: false; status: 400 | 413 | 415; field: 'brandColor' | 'logo'; message: string; suggestion?: string };

/** An owner's brand: colour and logo. One instance per request. */
export function createBranding(deps: { em: EntityManager; blobStore: BlobStore; logger: Logger }) {
  const { em, blobStore, logger } = deps;

  async function business(id: string): Promise<Business | null> {
    return em.findOne(Business, { id });
  }

  return {
    async get(businessId: string): Promise<Brand> {
      const b = await business(businessId);
      return b ? brandOf(b) : { color: null, logoKey: null };
    },

    /**
     * Saves the colour (empty: back to RewardLoop's) and, when one is sent, a new logo. Nothing is saved
     * when either is refused.
     */
    async update(businessId: string, input: { color: string; logo: Uint8Array | null }): Promise<BrandUpdate> {
      const row = await business(businessId);
      if (!row) return { ok: false, status: 400, field: 'brandColor', message: 'Sign in again to change your brand.' };
      let color: string | null = null;
      if (input.color.trim()) {
        const checked = checkBrandColor(input.color);
        if (!checked.ok) return { ok: false, status: 400, field: 'brandColor', message: checked.message, suggestion: checked.suggestion };
        color = checked.color;
      }
      let newKey: string | null = null;
      if (input.logo && input.logo.byteLength > 0) {
        const stored = await storeImageUpload(blobStore, input.logo, { format: 'png', maxSide: LOGO_MAX_SIDE, maxBytes: LOGO_MAX_BYTES });
        if (!stored.ok) return { ok: false, status: stored.status, field: 'logo', message: logoMessage(stored.code, stored.message) };
        newKey = stored.upload.key;
      }
      const oldKey = row.brandLogoKey ?? null;
      row.brandColor = color;
      if (newKey) row.brandLogoKey = newKey;
      await em.flush();
      if (newKey && oldKey) await deleteQuietly(oldKey);
      return { ok: true, brand: brandOf(row) };
    },

    async removeLogo(businessId: string): Promise<Brand> {
      const row = await business(businessId);
      if (!row) return { color: null, logoKey: null };
      const oldKey = row.brandLogoKey ?? null;
      row.brandLogoKey = null;
      await em.flush();
      if (oldKey) await deleteQuietly(oldKey);
      return brandOf(row);
    },

    /** The logo's bytes for the public logo address; null when the business has none. */
    async logo(businessId: string): Promise<StoredBlob | null> {
      const row = await business(businessId);
      if (!row?.brandLogoKey) return null;
      return blobStore.get(row.brandLogoKey);
    },
  };

  async function deleteQuietly(key: string) {
    try {
      await blobStore.delete(key);
    } catch (err) {
      logger.warn({ err, key }, 'an old logo could not be deleted');
    }
  }
}

/** The upload module speaks of screenshots; a logo refusal says logo. */
function logoMessage(code: string, message: string): string {
  if (code === 'too_large') return 'This logo is too large: upload an image under 5 MB.';
  if (code === 'unsupported_type') return 'Upload the logo as a PNG, JPEG or WebP image.';
  return message.replace(/screenshot/gi, 'logo');
}

export type Branding = ReturnType<typeof createBranding>;
