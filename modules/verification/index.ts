/**
 * modules/verification: the ScreenshotVerifier port, the layout-aware judge, text folding, the
 * verification history and the reader-driven verify flow that adapters/verification builds on.
 */
export * from './port.ts';
export * from './history.ts';
export * from './judge.ts';
export * from './text.ts';
export * from './verify.ts';
export * from './fingerprint.ts';
