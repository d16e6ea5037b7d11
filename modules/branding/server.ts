/** The server side of the brand: storing colour and logo (BlobStore, database). */
export { createBranding, LOGO_MAX_BYTES, LOGO_MAX_SIDE, type BrandUpdate, type Branding } from './service.ts';
