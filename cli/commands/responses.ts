import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';
import { uuidArg } from './rewards.ts';

/** Reads the answers: a JSON object of answers by question id, from a file or stdin (`-`). */
async function readAnswers(source: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = source === '-' ? await new Promise<string>((resolve, reject) => {
      let data = '';
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (chunk) => (data += chunk));
      process.stdin.on('end', () => resolve(data));
      process.stdin.on('error', reject);
    }) : await readFile(source, 'utf8');
  } catch (error) {
    throw new CliError(EXIT.usage, `Cannot read --answers ${source}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(EXIT.usage, '--answers must be a JSON object of answers by question id, like {"overall_rating": 5}.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliError(EXIT.usage, '--answers must be a JSON object of answers by question id, like {"overall_rating": 5}.');
  }
  return parsed as Record<string, unknown>;
}

/**
 * `reward-cli responses submit`: a customer's answers entered by an operator (a paper survey, a
 * support case), through the one submission use case the survey page and the JSON API use (ADR 056):
 * the same checks, repeat window, scoring, storage and reward.
 */
export function registerResponseCommands(program: Command, io: CliIo): void {
  const responses = program.command('responses').description('survey responses: submit');

  responses
    .command('submit')
    .description("submit a customer's answers to a published survey, as the survey page would (same checks, scoring and reward)")
    .argument('<businessId>', 'the business id')
    .argument('<surveyId>', 'the survey id')
    .requiredOption('--answers <file>', 'a JSON file of answers by question id (- reads stdin)')
    .option('--email <email>', "the customer's email address (needed for a reward)")
    .option('--name <name>', "the customer's name")
    .action(async (businessArg: string, surveyArg: string, flags: { answers: string; email?: string; name?: string }) => {
      const businessId = uuidArg(businessArg, 'businessId')!;
      const surveyId = uuidArg(surveyArg, 'surveyId')!;
      const answers = await readAnswers(flags.answers);
      await withRoot(io, { jobs: true }, async (root, { responses: service }) => {
        await requireMigrated(root);
        const result = await service.submit({
          businessId,
          surveyId,
          responses: answers,
          customerEmail: flags.email ?? null,
          customerName: flags.name ?? null,
          ipAddress: 'cli',
          userAgent: 'reward-cli',
        });
        if (!result.ok) throw new CliError(EXIT.failure, `${result.title}: ${result.message}`);
        io.out.write(
          `Stored response ${result.responseId}: ${result.totalPoints} points, ${result.rewardTier ?? 'no tier'}.` +
            (result.rewardQueued ? ' A reward-issue job was queued; the server sends the gift card.' : '') +
            '\n',
        );
      });
    });
}
