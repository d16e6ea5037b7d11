import { Option, type Command } from 'commander';
import { migrateBlobs, type BlobMigrationOutcome } from '../../modules/uploads/server.ts';
import { createBlobStore } from '../../server/composition.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';

type StoreId = 'postgres' | 's3' | 'disk';

const line = (result: BlobMigrationOutcome, index: number): string => {
  switch (result.outcome) {
    case 'copied':
      return `[${index}] copied   ${result.key} (${result.size} bytes)\n`;
    case 'skipped':
      return `[${index}] skipped  ${result.key} (already there, same size and SHA-256)\n`;
    case 'vanished':
      return `[${index}] vanished ${result.key} (deleted while migrating)\n`;
    case 'failed':
      return `[${index}] FAILED   ${result.key}: ${result.error}\n`;
  }
};

export function registerBlobCommands(program: Command, io: CliIo): void {
  const blobs = program.command('blobs').description('uploaded images (screenshots, logos): move them between blob stores');

  blobs
    .command('migrate')
    .description(
      'copy every upload from one blob store into another under the same key (rows keep their keys); ' +
        'safe to run again: blobs already there with the same size and SHA-256 are skipped. Nothing is deleted.',
    )
    .addOption(new Option('--to <store>', 'the store to fill').choices(['postgres', 's3']).makeOptionMandatory())
    .addOption(new Option('--from <store>', 'the store to read: DATA_DIR/uploads (disk), or another configured store').choices(['disk', 'postgres', 's3']).default('disk'))
    .action(async (flags: { to: StoreId; from: StoreId }) => {
      if (flags.from === flags.to) throw new CliError(EXIT.usage, `--from and --to are both ${flags.to}: nothing to move.`);
      await withRoot(io, {}, async (root) => {
        await requireMigrated(root);
        const from = createBlobStore(root, flags.from);
        try {
          const to = createBlobStore(root, flags.to);
          try {
            io.out.write(`Copying uploads from ${flags.from} to ${flags.to}...\n`);
            const summary = await migrateBlobs(from, to, (result, index) => void io.out.write(line(result, index)));
            io.out.write(
              `Done: ${summary.seen} blob(s) seen, ${summary.copied} copied (${summary.bytesCopied} bytes), ` +
                `${summary.skipped} already there, ${summary.vanished} vanished, ${summary.failed} failed. ` +
                `Nothing was deleted from ${flags.from}.\n`,
            );
            if (summary.failed > 0) throw new CliError(EXIT.failure, `${summary.failed} blob(s) could not be copied; run the command again to retry them.`);
            if (root.config.BLOB_STORE !== flags.to) io.out.write(`Set BLOB_STORE=${flags.to} to serve uploads from ${flags.to}.\n`);
          } finally {
            await to.close?.();
          }
        } finally {
          await from.close?.();
        }
      });
    });
}
