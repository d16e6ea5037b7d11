import { createCli, type CliIo } from '../../cli/program.ts';
import type { TestApp } from './test-root.ts';

/**
 * The environment `reward-cli` gets in tests: it builds its own root from env, like on a terminal,
 * pointed at the test's fresh database (the server of TEST_DATABASE_URL, or the embedded one the
 * test root serves).
 */
export function cliEnv(app: TestApp, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: app.dataDir,
    DATABASE_URL: app.root.config.DATABASE_URL ?? String(app.root.db.orm.config.get('clientUrl')),
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    DB_POOL_MAX: '2',
    ...extra,
  };
}

/** Runs the CLI through its public entry point and captures what it prints. */
export async function runCli(env: Record<string, string>, args: string[], io: Partial<CliIo> = {}) {
  let out = '';
  let err = '';
  const program = createCli({
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
    env,
    interactive: false,
    ...io,
  });
  await program.parseAsync(['node', 'reward-cli', ...args]);
  return { code: program.exitCode, out, err };
}
