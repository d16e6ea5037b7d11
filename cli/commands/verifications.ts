import type { Command } from 'commander';
import type { Verdict } from '../../modules/responses/server.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';
import { requiredId, table } from './rewards.ts';

const verdict = (v: Verdict | null) => (v === null ? 'image missing (kept)' : v.verdict === 'needs_review' ? `needs review: ${v.reviewCode ?? ''}` : v.isValid ? 'valid' : `rejected: ${v.rejectionCode ?? ''}`);

export function registerVerificationCommands(program: Command, io: CliIo): void {
  const verifications = program.command('verifications').description('screenshot verifications: replay');

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
}
