import { registerBillingSync } from '../modules/billing/server.ts';
import type { WorkOptions } from '../modules/jobs/index.ts';
import type { Mailer } from '../modules/mail/index.ts';
import { registerPosTokenRefresh } from '../modules/pos/server.ts';
import { type RewardDeps, rewardJobHandlers } from '../modules/rewards/server.ts';
import type { Root } from './root.ts';

/**
 * The job workers and schedules of a process that runs them (the server; ADR 055): the Square
 * token refresh, the billing sync and the reward workers. The CLI and the tests' plain roots never
 * call it; a test that needs the reward workers calls `startRewardWorkers`.
 */
export async function startWorkers(root: Root): Promise<void> {
  const jobs = root.jobs;
  if (!jobs) throw new Error('The workers need the job queue: create the root with jobs: true.');
  const em = root.db.orm.em;
  await registerPosTokenRefresh(jobs, { em, connector: root.pos, keyBase64: root.config.TOKEN_ENCRYPTION_KEY, logger: root.logger });
  await registerBillingSync(jobs, { em, billing: root.billing, logger: root.logger });
  await startRewardWorkers(root);
}

/** The root's parts every reward use case needs (database, gift cards, key, logger, mailer, app URL), without the queue. */
export function rewardParts(root: Root): Omit<RewardDeps, 'jobs'> & { mailer: Mailer; appUrl: string } {
  return {
    em: root.db.orm.em,
    giftCards: root.giftCards,
    tokenKey: root.config.TOKEN_ENCRYPTION_KEY,
    logger: root.logger,
    mailer: root.mailer,
    appUrl: root.config.APP_URL,
  };
}

/** What the reward jobs run with: `rewardParts` and the root's job queue. */
export function rewardDeps(root: Root): RewardDeps & { mailer: Mailer; appUrl: string } {
  if (!root.jobs) throw new Error('The rewards need the job queue: create the root with jobs: true.');
  return { ...rewardParts(root), jobs: root.jobs };
}

/**
 * Registers the `reward-issue` and `reward-email` workers (ADR 018). `startWorkers` calls it when the
 * process runs workers (the server); tests call it on a root with jobs, with faster polling.
 */
export async function startRewardWorkers(root: Root, options: WorkOptions & { emailLeaseSeconds?: number } = {}): Promise<void> {
  const { emailLeaseSeconds, ...work } = options;
  const deps = rewardDeps(root);
  const handlers = rewardJobHandlers({
    ...deps,
    emailLeaseSeconds,
  });
  const jobs = root.jobs!;
  // Batches of 5 run at once (Square and SMTP round trips overlap); an idle queue is looked at every
  // second, so a reward waits at most about a second per step (bench/rewards.ts).
  const defaults: WorkOptions = { batchSize: 5, concurrency: 1, pollingIntervalSeconds: 1 };
  await jobs.work('reward-issue', handlers.issue, { ...defaults, ...work });
  await jobs.work('reward-email', handlers.email, { ...defaults, ...work });
  await jobs.work('reward-confirm-email', handlers.confirmEmail, { ...defaults, ...work });
}
