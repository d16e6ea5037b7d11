/**
 * modules/verification, the browser-safe face: the ScreenshotVerifier and VerificationHistory ports,
 * their request and result types, the rejection and review-reason codes and the needs_review message
 * (the customer page's checks import it). The judge, the verify flow the adapters build on, text
 * folding, the history and the picture's fingerprint (node:zlib) are in `./server.ts`.
 */
export * from './port.ts';
