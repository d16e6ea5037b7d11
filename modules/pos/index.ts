/**
 * modules/pos, the browser-safe face: the POS port (Square), connection status and location display.
 * The connect/callback service and the token refresh job are in `./server.ts`.
 */
export * from './port.ts';
export { posStatus, type PosFields, type PosStatus } from '../accounts/index.ts';
export * from './location.ts';
