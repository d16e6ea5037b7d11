import type { AppLoadContext } from '@remix-run/node';

/** The message when an owner asks for the hosted vision verifier on a server without it (ADR 066). */
export const HOSTED_VISION_UNAVAILABLE = 'Checking screenshots with a hosted AI service is not set up on this server.';

/**
 * Whether a save may turn the hosted vision verifier on (ADR 066): only where it is configured. A
 * survey that already has it keeps it (the server falls back to its own verifier while the key is
 * missing), so a save never fails on a choice the owner is not making now.
 */
export function hostedVisionRefused(context: AppLoadContext, requested: boolean | undefined, stored: { hostedVision: boolean } | null): boolean {
  return Boolean(requested) && !stored?.hostedVision && !context.config.hostedVisionAvailable;
}
