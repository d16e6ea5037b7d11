/** modules/sharing, the server face: QR codes (PNG/SVG) and the printable flyer. */
export * from './qr.ts';
export * from './flyer.ts';
