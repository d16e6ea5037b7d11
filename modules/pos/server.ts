/** modules/pos, the server face: the connect/callback/location service and the nightly token refresh. */
export * from './service.ts';
export * from './refresh.ts';
export * from './operations.ts';
