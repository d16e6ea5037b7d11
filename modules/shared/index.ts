/** modules/shared: the logger (pino, with redaction). Server-side only. */
export * from './logger.ts';
export * from './provider.ts';
