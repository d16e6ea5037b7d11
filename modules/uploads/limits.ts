/**
 * The upload limits and messages as plain data (no sharp, no Node built-ins), so routes and the
 * browser can use them without importing the image pipeline (`images.ts`).
 */

/** 10 MiB. The route's multipart parser stops reading at this size too. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  empty: 'Please choose a screenshot to upload.',
  tooLarge: 'This image is larger than 10 MB. Please upload a smaller screenshot.',
  unsupportedType: 'Please upload an image (PNG, JPEG or WebP).',
  unreadable: "We couldn't read this image. Please upload a different screenshot.",
} as const;
