/**
 * modules/verification, the server face: all of index.ts (the ports), the layout-aware judge, text
 * folding, the verification history, the reader-driven verify flow that adapters/verification builds
 * on, and the picture's fingerprint.
 */
export * from './port.ts';
export * from './history.ts';
export * from './judge.ts';
export * from './text.ts';
export * from './verify.ts';
export * from './fingerprint.ts';
