import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { exportLabels, type Verdict } from '../../modules/responses/server.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';
import { requiredId, table, uuidArg } from './rewards.ts';

const verdict = (v: Verdict | null) => (v === null ? 'image missing (kept)' : v.verdict === 'needs_review' ? `needs review: ${v.reviewCode ?? ''}` : v.isValid ? 'valid' : `rejected: ${v.rejectionCode ?? ''}`);

export function registerVerificationCommands(program: Command, io: CliIo): void {
  const verifications = program.command('verifications').description('screenshot verifications: replay, labels export');

  verifications
    .command('replay')
    .description("run a response's screenshot checks again through the configured verifier and score it again (changes nothing unless --apply)")
    .argument('[responseId]', 'the survey response id (asked on a terminal when left out)')
    .option('--apply', 'store the new verdicts and score (refused when it would change a reward already issued)')
    .action(async (arg: string | undefined, flags: { apply?: boolean }) => {
      const responseId = await requiredId(io, arg, 'Survey response id', 'responseId');
      await withRoot(io, { jobs: Boolean(flags.apply) }, async (root, { verificationReplay }) => {
        await requireMigrated(root);
        // A verifier of its own, whose history ignores this response's own uses (modules/responses/replay.ts).
        const { verifierId, result } = await verificationReplay.replay(responseId, { apply: flags.apply });
        if (!result.ok) {
          throw new CliError(EXIT.failure, result.reason === 'not-found' ? `No survey response ${responseId}.` : `The survey of response ${responseId} no longer exists.`);
        }
        io.out.write(`Verifier: ${verifierId}\n`);
        if (result.checks.length === 0) io.out.write('This response used no screenshot verifications.\n');
        else {
          io.out.write(
            table([
              ['CHECK', 'KIND', 'PLATFORM', 'OLD', 'NEW'],
              ...result.checks.map((c) => [c.id, c.kind, c.platform, verdict(c.before), verdict(c.after)]),
            ]),
          );
        }
        const score = (s: { points: number; tier: string | null; rewardValue: number | null }) =>
          `${s.points} points, ${s.tier ?? 'no tier'}${s.rewardValue ? ` (${formatCents(s.rewardValue)})` : ''}`;
        io.out.write(`Old: ${score(result.before)}\nNew: ${score(result.after)}\n`);
        if (!result.changed) io.out.write('No change.\n');
        else if (!flags.apply) io.out.write('Nothing was changed (run again with --apply to store the new verdicts and score).\n');
        else if (result.refused) throw new CliError(EXIT.failure, result.refused);
        else io.out.write(`Applied.${result.rewardQueued ? ' A reward-issue job was queued.' : ''}${result.rewardHeld ? ' The reward is held for the owner\'s review (a proof needs review).' : ''}\n`);
      });
    });

  const labels = verifications.command('labels').description("owners' verdicts on proofs, as a labelled set (ADR 080)");
  labels
    .command('export')
    .description("write the proofs owners gave a verdict on (images and manifest.json in the fixture set's schema), for businesses that share labelled screenshots; score with node bench/verification.ts --dir DIR")
    .requiredOption('--since <YYYY-MM-DD>', 'owner decisions on or after this day (UTC)')
    .requiredOption('--out <DIR>', 'the folder to write (created; an existing manifest.json there is refused)')
    .option('--business <ID>', 'one business only')
    .action(async (flags: { since: string; out: string; business?: string }) => {
      const since = parseDay(flags.since);
      const businessId = flags.business === undefined ? undefined : uuidArg(flags.business, '--business')!;
      const out = path.resolve(flags.out);
      const manifestFile = path.join(out, 'manifest.json');
      const exists = existsSync(manifestFile);
      if (exists) throw new CliError(EXIT.usage, `${manifestFile} already exists: choose an empty folder for --out.`);
      await mkdir(path.join(out, 'images'), { recursive: true });
      await withRoot(io, {}, async (root) => {
        await requireMigrated(root);
        const result = await exportLabels({ em: root.db.orm.em, blobStore: root.blobStore }, { since, businessId }, (file, data) => writeFile(path.join(out, file), data));
        await writeFile(manifestFile, JSON.stringify(result.manifest, null, 2) + '\n');
        io.out.write(
          `Wrote ${result.written} labelled ${result.written === 1 ? 'proof' : 'proofs'} to ${out}.\n` +
            `Skipped ${result.skipped.notShared} of businesses that do not share labelled screenshots, ${result.skipped.imageMissing} whose image is no longer stored.\n`,
        );
      });
    });
}

/** A day as YYYY-MM-DD (a real date), as the start of that day in UTC. */
export function parseDay(value: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value.trim()) {
    throw new CliError(EXIT.usage, `--since must be a day like 2026-11-01 (YYYY-MM-DD), got ${JSON.stringify(value.slice(0, 40))}.`);
  }
  return date;
}
