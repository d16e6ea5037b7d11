/**
 * modules/sharing, the browser-safe face: public survey URLs. The QR code and the printable flyer
 * (qrcode, @napi-rs/canvas) are in `./server.ts`.
 */
export * from './urls.ts';
