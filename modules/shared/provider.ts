import type { z } from 'zod';

/**
 * An adapter as the composition root sees it (ADR 055): the id configuration picks it by
 * (`POS=demo`, `BILLING=stripe`), the settings it reads and checks itself, and how to build it.
 * Each adapter file exports its own `provider`; `server/providers.ts` lists them per port.
 */
export type AdapterProvider<Port, Options = unknown, Deps = never> = {
  /** The value of the port's configuration variable that selects this adapter; equals the adapter's own `id`. */
  readonly id: string;
  /**
   * Set on demo and fake adapters: how the production refusal names it (refused when
   * NODE_ENV=production unless ALLOW_DEMO_ADAPTERS=true).
   */
  readonly demo?: string;
  /**
   * Reads this adapter's settings from the validated configuration (environment variable names as
   * keys) and checks them; an issue's path names the variable, its message says what is wrong.
   */
  readonly options: z.ZodType<Options, Record<string, unknown>>;
  create(options: Options, deps: Deps): Port;
};

/** Types a provider (infers its options from the schema). */
export function defineProvider<Port, Options, Deps = never>(provider: AdapterProvider<Port, Options, Deps>): AdapterProvider<Port, Options, Deps> {
  return provider;
}
