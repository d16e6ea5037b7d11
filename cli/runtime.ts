import type { Logger } from 'pino';
import { createOperatorServices, createRoot, type OperatorServices, type Root } from '../server/composition.ts';
import { loadConfig, type Config } from '../server/config.ts';
import { createLogger } from '../modules/shared/index.ts';

/**
 * Exit codes of reward-cli (documented in README.md):
 * 0 done, 1 the operation failed, 2 usage or validation error (fix the command line, input or
 * environment and retry), 130 cancelled at a prompt (Ctrl+C).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, cancelled: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Anything text can be written to: process.stdout, process.stderr, or a buffer in tests. */
export type Writer = { write(text: string): unknown };

type PromptConfig = { message: string; validate?: (value: string) => boolean | string };

/** The two @inquirer/prompts the CLI uses; injectable so tests can answer them. */
export type Prompts = {
  input(config: PromptConfig): Promise<string>;
  password(config: PromptConfig & { mask?: boolean | string }): Promise<string>;
};

/** Everything the CLI touches outside itself. `createCli()` fills the process defaults. */
export type CliIo = {
  out: Writer;
  err: Writer;
  /** Environment the configuration is loaded from (as the server does, via `loadConfig`). */
  env: Record<string, string | undefined>;
  /** Whether questions may be asked: true only when stdin is a terminal. */
  interactive: boolean;
  prompts: Prompts;
};

/** A failure a handler reports to the user: the message goes to stderr, the code becomes the exit code. */
export class CliError extends Error {
  override name = 'CliError';
  exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function defaultIo(): CliIo {
  return {
    out: process.stdout,
    err: process.stderr,
    env: process.env,
    interactive: process.stdin.isTTY === true,
    prompts: {
      // Loaded on first use: most runs never prompt.
      input: async (config) => (await import('@inquirer/prompts')).input(config),
      password: async (config) => (await import('@inquirer/prompts')).password(config),
    },
  };
}

/** The server's config, with the CLI's quieter default log level (warn unless LOG_LEVEL says otherwise). */
export function cliConfig(io: CliIo): Config {
  return loadConfig({ ...io.env, LOG_LEVEL: io.env.LOG_LEVEL || 'warn' });
}

/** The one logger factory; log lines go to the CLI's stderr so stdout stays the command's output. */
export function cliLogger(io: CliIo, config: Config): Logger {
  return createLogger({ level: config.LOG_LEVEL, name: 'reward-cli', destination: { write: (line: string) => void io.err.write(line) } });
}

/**
 * Builds the same composition root as the server from `loadConfig(env)`, runs `fn` with it and the
 * module services (`createOperatorServices`: the one way commands reach modules, ADR 056) and
 * always closes it. `migrate` is false everywhere except `db migrate`: the CLI never changes the
 * schema as a side effect; other commands refuse to run while migrations are pending.
 */
export async function withRoot<T>(
  io: CliIo,
  /** `jobs`: start the job queue (to send jobs; the CLI never runs workers). */
  options: { migrate?: boolean; config?: Config; jobs?: boolean },
  fn: (root: Root, services: OperatorServices) => Promise<T>,
): Promise<T> {
  const config = options.config ?? cliConfig(io);
  const root = await createRoot(config, { logger: cliLogger(io, config), migrate: options.migrate ?? false, jobs: options.jobs ?? false });
  try {
    return await fn(root, createOperatorServices(root));
  } finally {
    await root.close();
  }
}

/** Refuses to work on a database whose schema is behind the code. */
export async function requireMigrated(root: Root): Promise<void> {
  const pending = await root.db.orm.migrator.getPending();
  if (pending.length > 0) {
    throw new CliError(
      EXIT.failure,
      `The database (${root.db.describe}) has ${pending.length} pending migration(s). Run \`reward-cli db migrate\` first.`,
    );
  }
}
