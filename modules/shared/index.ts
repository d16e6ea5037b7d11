/** modules/shared: the logger (pino, with redaction). Server-side only. */
export * from './logger.ts';
export * from './provider.ts';
export * from './ids.ts';
export * from './text.ts';
export * from './errors.ts';
export * from './log-path.ts';
export * from './demo-store.ts';
export * from './json.ts';
