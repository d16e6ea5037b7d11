import { Command, CommanderError, type ParseOptions } from 'commander';
import { ConfigError } from '../server/config.ts';
import { registerAccountCommands } from './commands/accounts.ts';
import { registerAnalyticsCommands } from './commands/analytics.ts';
import { registerBlobCommands } from './commands/blobs.ts';
import { registerDbCommands } from './commands/db.ts';
import { registerResponseCommands } from './commands/responses.ts';
import { registerRewardCommands } from './commands/rewards.ts';
import { registerSquareCommands } from './commands/square.ts';
import { registerVerificationCommands } from './commands/verifications.ts';
import { CliError, EXIT, defaultIo, type CliIo } from './runtime.ts';

export { EXIT, type CliIo, type Prompts, type Writer } from './runtime.ts';

/**
 * The reward-cli program. `parseAsync` never rejects and never exits the process: it records the
 * outcome in `exitCode` (see EXIT), which the bin hands to `process.exitCode`.
 */
export class RewardCli extends Command {
  exitCode: number = EXIT.ok;
  io: CliIo;

  constructor(io: CliIo) {
    super('reward-cli');
    this.io = io;
  }

  override async parseAsync(argv?: readonly string[], options?: ParseOptions): Promise<this> {
    this.exitCode = EXIT.ok;
    try {
      await super.parseAsync(argv, options);
    } catch (error) {
      this.exitCode = this.report(error);
    }
    return this;
  }

  /** Writes what went wrong to stderr and picks the exit code. */
  private report(error: unknown): number {
    const { err } = this.io;
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help/version) through configureOutput.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      err.write(`error: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      err.write(`${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof Error && error.name === 'ExitPromptError') {
      err.write('Cancelled.\n');
      return EXIT.cancelled;
    }
    err.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}

/** Builds the commander program; `io` defaults to the process (stdout, stderr, env, TTY, prompts). */
export function createCli(io: Partial<CliIo> = {}): RewardCli {
  const resolved: CliIo = { ...defaultIo(), ...io };
  const program = new RewardCli(resolved);
  // Settings first: subcommands copy them when created.
  program
    .description('RewardLoop administration: database, owner accounts, responses, rewards, verifications, Square, analytics and uploads, on the same composition root as the server.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void resolved.out.write(text),
      writeErr: (text) => void resolved.err.write(text),
    })
    .showHelpAfterError('(run reward-cli --help for usage)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  reward-cli db migrate\n' +
        '  reward-cli db seed\n' +
        "  reward-cli accounts create --name 'Crumb & Co' --email owner@example.com --password 'correct horse'\n" +
        '  reward-cli responses submit <businessId> <surveyId> --answers answers.json --email ana@example.com\n' +
        '  reward-cli rewards failed\n' +
        '  reward-cli rewards issue 3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b\n' +
        '  reward-cli verifications replay 3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b --apply\n' +
        '  reward-cli analytics 3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b --from 2026-01-01 --json\n' +
        '  reward-cli blobs migrate --to postgres\n' +
        '\nExit codes: 0 done, 1 failed, 2 usage or validation error, 130 cancelled at a prompt.\n' +
        'The database is DATABASE_URL when set, else the embedded one under DATA_DIR (default .data).\n',
    );
  registerDbCommands(program, resolved);
  registerAccountCommands(program, resolved);
  registerResponseCommands(program, resolved);
  registerRewardCommands(program, resolved);
  registerVerificationCommands(program, resolved);
  registerSquareCommands(program, resolved);
  registerAnalyticsCommands(program, resolved);
  registerBlobCommands(program, resolved);
  return program;
}
