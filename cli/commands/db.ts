import type { Command } from 'commander';
import { CliError, EXIT, cliConfig, requireMigrated, withRoot, type CliIo } from '../runtime.ts';

/** The demo owner `db seed` creates; the password is published on purpose (development only). */
export const DEMO_BUSINESS = { displayName: 'Demo Cafe', email: 'demo@rewardloop.local', password: 'rewardloop-demo' } as const;

export function registerDbCommands(program: Command, io: CliIo): void {
  const db = program.command('db').description('database maintenance: migrate, seed');

  db.command('migrate')
    .description('apply pending migrations')
    .action(async () => {
      await withRoot(io, { migrate: false }, async (root) => {
        io.out.write(`Database: ${root.db.describe}\n`);
        const applied = await root.db.orm.migrator.up();
        if (applied.length === 0) {
          io.out.write('Database is up to date\n');
          return;
        }
        io.out.write(`Applied ${applied.length} migration(s):\n`);
        for (const migration of applied) io.out.write(`  ${migration.name}\n`);
      });
    });

  db.command('seed')
    .description(`create the demo business (${DEMO_BUSINESS.email}); does nothing if it exists`)
    .action(async () => {
      const config = cliConfig(io);
      if (config.NODE_ENV === 'production' && !config.ALLOW_DEMO_ADAPTERS) {
        throw new CliError(
          EXIT.failure,
          'db seed creates an account with a published password and is refused in production (set ALLOW_DEMO_ADAPTERS=true to allow it).',
        );
      }
      await withRoot(io, { config }, async (root, { accounts }) => {
        await requireMigrated(root);
        const existing = await accounts.byEmail(DEMO_BUSINESS.email);
        if (existing) {
          io.out.write(`Demo business ${DEMO_BUSINESS.email} already exists; nothing to do.\n`);
          return;
        }
        const result = await accounts.signUp(DEMO_BUSINESS);
        if (!result.ok) {
          // Created by someone else between the check and the insert: the end state is the same.
          io.out.write(`Demo business ${DEMO_BUSINESS.email} already exists; nothing to do.\n`);
          return;
        }
        io.out.write(
          `Created demo business '${DEMO_BUSINESS.displayName}'. Sign in at ${new URL('/auth', config.APP_URL)} with:\n` +
            `  email:    ${DEMO_BUSINESS.email}\n` +
            `  password: ${DEMO_BUSINESS.password}\n`,
        );
      });
    });
}
