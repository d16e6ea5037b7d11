import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { RewardEmailBusyError, errorText, type IssuanceSummary, type FailedReward, type HeldReward } from '../../modules/rewards/server.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import { isUuid } from '../../modules/shared/index.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';


/** A UUID from a flag or argument, or a usage error naming it. */
export function uuidArg(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isUuid(value.trim())) throw new CliError(EXIT.usage, `${name} must be an id like 3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b, got ${JSON.stringify(value.slice(0, 60))}.`);
  return value.trim().toLowerCase();
}

/** The argument, else a prompt on a terminal, else a usage error (scripts must pass it). */
export async function requiredId(io: CliIo, value: string | undefined, label: string, argName: string): Promise<string> {
  if (value !== undefined) return uuidArg(value, argName)!;
  if (!io.interactive) throw new CliError(EXIT.usage, `Missing <${argName}>. Pass it as an argument, or run in a terminal to be asked.`);
  const answer = await io.prompts.input({ message: label, validate: (v) => (isUuid(v.trim()) ? true : 'Enter an id like 3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b') });
  return answer.trim().toLowerCase();
}

/** Columns padded to the widest cell; the last column is not padded. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

const day = (iso: string) => iso.replace('T', ' ').slice(0, 16);
const money = (cents: number | null) => (cents === null ? '-' : formatCents(cents));

function printFailures(io: CliIo, failed: FailedReward[], json: boolean, withBusiness: boolean) {
  if (json) {
    io.out.write(`${JSON.stringify(failed, null, 2)}\n`);
    return;
  }
  if (failed.length === 0) {
    io.out.write('No failed rewards.\n');
    return;
  }
  io.out.write(
    table([
      ['FAILED AT', 'STAGE', 'RESPONSE', ...(withBusiness ? ['BUSINESS'] : []), 'CUSTOMER', 'REWARD', 'ATTEMPTS', 'LAST ERROR'],
      ...failed.map((f) => [
        day(f.failedAt),
        f.stage === 'issue' ? 'card' : 'email',
        f.surveyResponseId,
        ...(withBusiness ? [f.businessName] : []),
        f.customerEmail ?? '-',
        `${money(f.rewardValue)} ${f.rewardTier ?? ''}`.trim(),
        String(f.attempts),
        (f.lastError ?? '').replace(/\s+/g, ' ').slice(0, 120),
      ]),
    ]),
  );
  io.out.write(`${failed.length} failed reward(s). Queue them again with: reward-cli rewards retry-failed\n`);
}

function describeIssuance(i: IssuanceSummary): string {
  return `${formatCents(i.rewardValue)} ${i.rewardTier} ${i.isSquareGiftCard ? 'Square gift card' : 'Test card'} ${i.giftCardNumber} for ${i.customerEmail}`;
}

export function registerRewardCommands(program: Command, io: CliIo): void {
  const rewards = program.command('rewards').description('gift card rewards: list, failed, issue, retry-failed, review');

  rewards
    .command('list')
    .description('issued gift cards, newest first (--failed: the rewards that failed after every retry)')
    .option('--business <id>', 'only this business')
    .option('--failed', 'list failed rewards instead (same as `rewards failed`)')
    .option('--limit <n>', 'at most this many (default 100)', '100')
    .option('--json', 'print JSON')
    .action(async (flags: { business?: string; failed?: boolean; limit: string; json?: boolean }) => {
      const businessId = uuidArg(flags.business, '--business');
      const limit = Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new CliError(EXIT.usage, '--limit must be a whole number from 1 to 5000.');
      await withRoot(io, {}, async (root, { rewardOperations }) => {
        await requireMigrated(root);
        if (flags.failed) {
          printFailures(io, await rewardOperations.failures({ businessId }), Boolean(flags.json), !businessId);
          return;
        }
        const items = await rewardOperations.list({ businessId, limit });
        if (flags.json) {
          io.out.write(`${JSON.stringify(items, null, 2)}\n`);
          return;
        }
        if (items.length === 0) {
          io.out.write('No gift cards issued yet.\n');
          return;
        }
        io.out.write(
          table([
            ['ISSUED', ...(businessId ? [] : ['BUSINESS']), 'CUSTOMER', 'CARD', 'TYPE', 'REWARD', 'EMAIL'],
            ...items.map((i) => [
              day(i.issuedAt),
              ...(businessId ? [] : [i.businessName]),
              i.customerEmail,
              i.giftCardNumber,
              i.isSquareGiftCard ? 'Square' : 'Test',
              `${formatCents(i.rewardValue)} ${i.rewardTier}`,
              i.emailStatus,
            ]),
          ]),
        );
      });
    });

  rewards
    .command('failed')
    .description('rewards that failed after every retry: no card could be issued, or the email could not be sent')
    .option('--business <id>', 'only this business')
    .option('--json', 'print JSON')
    .action(async (flags: { business?: string; json?: boolean }) => {
      const businessId = uuidArg(flags.business, '--business');
      await withRoot(io, {}, async (root, { rewardOperations }) => {
        await requireMigrated(root);
        printFailures(io, await rewardOperations.failures({ businessId }), Boolean(flags.json), !businessId);
      });
    });

  rewards
    .command('issue')
    .description("issue a response's gift card now and send its email (idempotent: an issued reward is reported, not issued again)")
    .argument('[responseId]', 'the survey response id (asked on a terminal when left out)')
    .action(async (arg: string | undefined) => {
      const responseId = await requiredId(io, arg, 'Survey response id', 'responseId');
      await withRoot(io, { jobs: true }, async (root, { rewardOperations }) => {
        await requireMigrated(root);
        let outcome;
        try {
          // The job's code; a failure is recorded on the reward as the job would record it.
          outcome = await rewardOperations.issue(responseId);
        } catch (error) {
          throw new CliError(EXIT.failure, `Could not issue the gift card: ${errorText(error)}`);
        }
        if (outcome.status === 'not-found') throw new CliError(EXIT.failure, `No survey response ${responseId}.`);
        if (outcome.status === 'not-eligible') throw new CliError(EXIT.failure, `Response ${responseId} earns no reward (${outcome.reason}); nothing to issue.`);
        const { issuance } = outcome;
        io.out.write(
          outcome.status === 'issued' ? `Issued ${describeIssuance(issuance)}.\n` : `Already issued: ${describeIssuance(issuance)} (on ${day(issuance.issuedAt.toISOString())}).\n`,
        );
        let email;
        try {
          email = await rewardOperations.sendEmail(issuance.id);
        } catch (error) {
          if (error instanceof RewardEmailBusyError) {
            io.out.write('The email is being sent by the server right now.\n');
            return;
          }
          throw new CliError(EXIT.failure, `The card is issued, but its email could not be sent: ${errorText(error)}. The server's reward-email job retries it.`);
        }
        if (email.status === 'sent') io.out.write(`Emailed ${email.to}${root.outbox ? ` (kept in ${root.outbox.location})` : ''}.\n`);
        else if (email.status === 'already-sent') io.out.write(`Email already sent on ${day(email.emailedAt.toISOString())}.\n`);
      });
    });

  rewards
    .command('retry-failed')
    .description('queue every failed reward again (the server runs the jobs; a retry never issues a second card)')
    .option('--business <id>', 'only this business')
    .action(async (flags: { business?: string }) => {
      const businessId = uuidArg(flags.business, '--business');
      await withRoot(io, { jobs: true }, async (root, { rewardOperations }) => {
        await requireMigrated(root);
        const queued = await rewardOperations.retryFailed({ businessId });
        if (queued.length === 0) {
          io.out.write('No failed rewards.\n');
          return;
        }
        for (const f of queued) io.out.write(`  ${f.stage === 'issue' ? 'card ' : 'email'}  ${f.surveyResponseId}  ${f.customerEmail ?? '-'}\n`);
        io.out.write(`Queued ${queued.length} failed reward(s) again; the server's workers will process them.\n`);
      });
    });

  registerReviewCommands(rewards, io);
}

/** Who decided, for the audit trail: the operating system user running the CLI. */
function cliActor(io: CliIo): string {
  let name = io.env.USER ?? io.env.LOGNAME ?? '';
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = 'unknown';
    }
  }
  return `cli:${name}`;
}

function printHolds(io: CliIo, held: HeldReward[], json: boolean) {
  if (json) {
    io.out.write(`${JSON.stringify(held, null, 2)}\n`);
    return;
  }
  if (held.length === 0) {
    io.out.write('No held rewards.\n');
    return;
  }
  io.out.write(
    table([
      ['HELD AT', 'STATUS', 'RESPONSE', 'BUSINESS', 'CUSTOMER', 'REWARD', 'REASONS'],
      ...held.map((h) => [
        day(h.heldAt),
        h.status,
        h.surveyResponseId,
        h.businessName,
        h.customerEmail ?? '-',
        `${money(h.rewardValue)} ${h.rewardTier ?? ''}`.trim(),
        h.reasons.map((r) => r.code).join(',') || (h.status === 'awaiting_email' ? 'email confirmation' : '-'),
      ]),
    ]),
  );
  io.out.write(`${held.length} held reward(s). Decide with: reward-cli rewards review release <responseId> | reject <responseId>\n`);
}

/** `reward-cli rewards review`: held rewards (ADR 050): list (the default), release <id>, reject <id>. */
function registerReviewCommands(rewards: Command, io: CliIo): void {
  const review = rewards.command('review').description('rewards held for review: list (default), release <responseId>, reject <responseId>');

  review
    .command('list', { isDefault: true })
    .description('held rewards waiting for a decision, oldest first (--all: decided ones too)')
    .option('--business <id>', 'only this business')
    .option('--all', 'include released and rejected rewards')
    .option('--json', 'print JSON')
    .action(async (flags: { business?: string; all?: boolean; json?: boolean }) => {
      const businessId = uuidArg(flags.business, '--business');
      await withRoot(io, {}, async (root, { rewardOperations }) => {
        await requireMigrated(root);
        printHolds(io, await rewardOperations.holds({ businessId, all: Boolean(flags.all) }), Boolean(flags.json));
      });
    });

  for (const decision of ['release', 'reject'] as const) {
    review
      .command(decision)
      .description(
        decision === 'release'
          ? 'release a held reward: its gift card is issued and emailed once by the server'
          : 'reject a held reward: no gift card is ever issued for it',
      )
      .argument('[responseId]', 'the survey response id (asked on a terminal when left out)')
      .action(async (arg: string | undefined) => {
        const responseId = await requiredId(io, arg, 'Survey response id of the held reward', 'responseId');
        await withRoot(io, { jobs: true }, async (root, { rewardOperations }) => {
          await requireMigrated(root);
          const result = await rewardOperations.decideHold({ responseId, businessId: null, decision, actor: cliActor(io) });
          if (!result.ok) throw new CliError(EXIT.failure, result.status === 404 ? `No held reward for response ${responseId}.` : result.message);
          io.out.write(
            result.status === 'released'
              ? `Released the reward of response ${responseId}; the server's workers issue the gift card and email it.\n`
              : `Rejected the reward of response ${responseId}; no gift card will be issued.\n`,
          );
        });
      });
  }
}
