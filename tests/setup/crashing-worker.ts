// A server process that takes reward-issue jobs and hangs in them, to be killed with SIGKILL (a crash
// mid-job). Run as `node tests/setup/crashing-worker.ts <database url>`; prints `claimed <job id>`.
import { PgBossJobQueue } from '../../adapters/jobs/PgBossJobQueue.ts';
import { createLogger } from '../../modules/shared/logger.ts';

const queue = await PgBossJobQueue.start({ connectionString: process.argv[2]!, logger: createLogger({ level: 'silent' }), worker: true });
await queue.work('reward-issue', async (job) => {
  process.stdout.write(`claimed ${job.id}\n`);
  await new Promise(() => {});
}, { pollingIntervalSeconds: 0.5 });
