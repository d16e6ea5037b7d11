/**
 * modules/pos, the server face: the connect/callback/location service, the nightly token refresh, and
 * the decrypted Square credentials that rewards issues cards with (`posCredentials`).
 */
export * from './service.ts';
export * from './refresh.ts';
export * from './operations.ts';
export * from './credentials.ts';
