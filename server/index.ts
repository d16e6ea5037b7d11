import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import cluster, { type Worker } from 'node:cluster';
import { createServer as createNetServer } from 'node:net';
import { ConfigError, loadConfig, localAppUrl } from './config.ts';
import { createRoot } from './composition.ts';
import { openDatabase } from './database.ts';
import { createLogger } from '../modules/shared/index.ts';
import { EmbeddedPostgresError } from './embedded-postgres.ts';
import { createHttpApp } from './http.ts';
import { createLifecycle } from './lifecycle.ts';
import { serveClusterMetrics } from './metrics.ts';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A port nobody listens on now (for PORT=0 with share links that must name the real port). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * WEB_CONCURRENCY > 1 (issue 26): this primary process applies the migrations (and, without
 * DATABASE_URL, starts the embedded PostgreSQL, once), then runs that many workers with node:cluster.
 * Each worker is this file again with the resolved settings in its environment (the database's URL,
 * the port, APP_URL, the blob store); they share the port, each runs the app and the job workers.
 * A worker that dies is replaced; on SIGTERM or SIGINT every worker drains (as a single process
 * does), then the database is closed and the primary exits 0.
 */
async function runPrimary(config: ReturnType<typeof loadConfig>) {
  const logger = createLogger({ level: config.LOG_LEVEL, pretty: config.NODE_ENV === 'development' && process.stdout.isTTY });
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: 1, logger, migrate: true });
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    BLOB_STORE: config.BLOB_STORE,
    PORT: String(config.PORT),
    APP_URL: config.APP_URL,
    SESSION_SECRET: config.SESSION_SECRET,
    TOKEN_ENCRYPTION_KEY: config.TOKEN_ENCRYPTION_KEY,
    WEB_CONCURRENCY: '1',
  };
  let stopping = false;
  // A worker asked for /metrics gets every worker's figures, summed here.
  serveClusterMetrics();
  const fork = () => cluster.fork(env);
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'a web worker exited; starting another');
    fork();
  });
  for (let i = 0; i < config.WEB_CONCURRENCY; i += 1) fork();
  logger.info({ workers: config.WEB_CONCURRENCY, port: config.PORT, database: db.describe }, `RewardLoop primary: ${config.WEB_CONCURRENCY} web workers on http://localhost:${config.PORT}`);
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping the web workers');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    const exited = workers.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))));
    for (const w of workers) w.process.kill('SIGTERM');
    await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 16_000).unref())]);
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function main() {
  const config = loadConfig();
  if (config.APP_URL_FROM_PORT && config.PORT === 0) {
    // Links, QR codes and emails name the port the server really listens on.
    config.PORT = await freePort(config.HOST);
    config.APP_URL = localAppUrl(config.PORT);
  }
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) return runPrimary(config);
  const production = config.NODE_ENV === 'production';
  // In development Vite starts while the database starts and migrates: neither waits for the other.
  const viteStarting = production
    ? null
    : import('vite').then((vite) => vite.createServer({ root: projectDir, server: { middlewareMode: true }, appType: 'custom' }));
  // Awaited below; a failure meanwhile must not count as an unhandled rejection.
  viteStarting?.catch(() => undefined);
  // The server runs the job workers and schedules too (the daily pos-token-refresh).
  const root = await createRoot(config, { migrate: true, jobs: true, workers: true }).catch(async (error: unknown) => {
    await (await viteStarting?.catch(() => null))?.close();
    throw error;
  });
  const { logger } = root;
  const lifecycle = createLifecycle();
  let app;
  let closeVite: (() => Promise<void>) | undefined;
  if (production) {
    const buildPath = path.join(projectDir, 'build/server/index.js');
    const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
    app = createHttpApp(root, { build, clientDir: path.join(projectDir, 'build/client'), lifecycle });
  } else {
    const viteServer = (await viteStarting)!;
    // Imported here only: it needs Vite, a development dependency.
    const { devServerBuild } = await import('./dev-build.ts');
    closeVite = () => viteServer.close();
    app = createHttpApp(root, {
      // Routes compiled by Vite, the server code they import loaded once, by Node (ADR 095).
      build: devServerBuild(viteServer, projectDir).build,
      devMiddleware: viteServer.middlewares,
      lifecycle,
    });
  }
  const server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info({ port, database: root.db.describe, mailer: root.mailer.id, mode: config.NODE_ENV }, `RewardLoop listening on http://localhost:${port}`);
  });
  // Expired sessions are deleted at start and every hour.
  const purge = () =>
    root.sessions.purgeExpired().then(
      (n) => n > 0 && logger.info({ sessions: n }, 'expired sessions purged'),
      (err: unknown) => logger.warn({ err }, 'could not purge expired sessions'),
    );
  void purge();
  const purgeTimer = setInterval(purge, 60 * 60 * 1000);
  purgeTimer.unref();
  let stopping = false;
  /**
   * Draining (issue 26): readiness fails at once (/readyz 503, every answer `Connection: close`), no
   * new connection is accepted, requests already received are answered (10 s at most), idle
   * keep-alive connections are closed, running jobs finish or go back to the queue (pg-boss's
   * graceful stop), the pools close; the process exits 0 within 15 s whatever hangs.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    lifecycle.drain();
    logger.info({ signal }, 'draining: readiness failed, finishing requests in flight');
    const hardStop = setTimeout(() => {
      logger.error('draining took longer than 15 s; exiting');
      process.exit(0);
    }, 15_000);
    hardStop.unref();
    clearInterval(purgeTimer);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const answered = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref())]);
    if (!answered) {
      logger.warn('requests still open after 10 s; closing their connections');
      server.closeAllConnections();
    }
    await closeVite?.();
    await root.close();
    logger.info('drained; exiting');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // A web worker whose primary is gone (killed) gets no more connections: it drains and exits.
  if (cluster.isWorker) process.on('disconnect', () => void stop('primary gone'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedPostgresError) {
    console.error(error.message);
  } else {
    console.error('RewardLoop failed to start:', error);
  }
  process.exit(1);
});
