import type { Command } from 'commander';
import { parseAnalyticsQuery } from '../../modules/analytics/index.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';
import { requiredId, table } from './rewards.ts';

/**
 * `reward-cli analytics <surveyId> [--from] [--to] [--json]`: the figures of the survey's analytics
 * page, from the same module (`modules/analytics`, `report()`), for an operator on the server.
 */
export function registerAnalyticsCommands(program: Command, io: CliIo): void {
  program
    .command('analytics')
    .description("a survey's analytics, the same figures as its page: stat cards, tiers, questions, gift cards, funnel")
    .argument('[surveyId]', 'the survey id (asked on a terminal when left out)')
    .option('--from <date>', 'first day, YYYY-MM-DD (UTC)')
    .option('--to <date>', 'last day, YYYY-MM-DD (UTC)')
    .option('--json', 'print JSON')
    .action(async (arg: string | undefined, options: { from?: string; to?: string; json?: boolean }) => {
      const surveyId = await requiredId(io, arg, 'Survey id', 'surveyId');
      const parsed = parseAnalyticsQuery(new URLSearchParams({ ...(options.from ? { from: options.from } : {}), ...(options.to ? { to: options.to } : {}) }));
      if (!parsed.ok) throw new CliError(EXIT.usage, parsed.message);
      await withRoot(io, {}, async (root, { analytics }) => {
        await requireMigrated(root);
        const survey = await analytics.surveyForOperator(surveyId);
        if (!survey) throw new CliError(EXIT.failure, `No survey ${surveyId}.`);
        const report = await analytics.report(survey.businessId, { surveyId: survey.id, ...parsed.window });
        if (options.json) {
          io.out.write(`${JSON.stringify({ survey, from: parsed.query.from || null, to: parsed.query.to || null, ...report }, null, 2)}\n`);
          return;
        }
        const { stats, distribution, questions, giftCards: g, funnel } = report;
        const period = parsed.query.from || parsed.query.to ? `${parsed.query.from || 'the start'} to ${parsed.query.to || 'today'} (UTC)` : 'all time';
        io.out.write(`${survey.title} (${survey.id}, ${survey.isActive ? 'Active' : 'Inactive'}), ${period}\n\n`);
        io.out.write(
          table([
            ['Total Responses', 'Average Points', 'Gold Tier', 'This Month'],
            [String(stats.totalResponses), stats.averagePoints === null ? '-' : String(stats.averagePoints), String(stats.goldCount), String(stats.thisMonth)],
          ]),
        );
        io.out.write(`\nReward distribution\n${table([['Tier', 'Responses', 'Percent'], ...distribution.tiers.map((t) => [t.tier, String(t.count), `${t.percent}%`])])}`);
        io.out.write(
          `\nQuestions\n${table([
            ['Question', 'Answers', 'Average', 'Positive', 'Neutral', 'Negative', 'Most common'],
            ...questions.map((q) => [
              q.label,
              String(q.count),
              q.averageRating === null ? '-' : String(q.averageRating),
              q.sentiment ? String(q.sentiment.positive) : '-',
              q.sentiment ? String(q.sentiment.neutral) : '-',
              q.sentiment ? String(q.sentiment.negative) : '-',
              q.top[0] ? `${q.top[0].answer.slice(0, 40)} (${q.top[0].count})` : '-',
            ]),
          ])}`,
        );
        io.out.write(
          `\nGift cards: ${g.cards} issued, ${formatCents(g.cents)} (Square ${g.squareCards}, ${formatCents(g.squareCents)}; Test ${g.testCards}, ${formatCents(g.testCents)}); ` +
            `redeemed at Square: ${g.redeemedCards} cards, ${formatCents(g.redeemedCents)}\n`,
        );
        io.out.write(`\nFunnel${funnel.countingSince ? ` (counted since ${funnel.countingSince})` : ''}\n${table([['Step', 'Count'], ...funnel.steps.map((st) => [st.label, String(st.count)])])}`);
      });
    });
}
