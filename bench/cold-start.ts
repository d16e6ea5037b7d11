/**
 * Cold start: time from spawning the run command to the first 200 on `/`, on a fresh DATA_DIR
 * (fresh embedded PostgreSQL database, migrations applied at start), for the development command
 * (`node server/index.ts` with NODE_ENV=development: Vite middleware, SSR compiled on demand) and
 * the production server (the built app in build/).
 *
 *   node bench/cold-start.ts [--runs 5] [--mode both|development|production] [--timeout 60] [--json]
 *                            [--strict] [--max-wait 300]
 *
 * Before each run it waits up to --max-wait seconds for other processes to go quiet (0: don't), and
 * it reports how much CPU other processes took during each run: on a 2-core machine a concurrent
 * test suite easily doubles a cold start.
 *
 * Exits 1 when a server fails to start or never answers 200, 2 with --strict when the target is missed.
 */
import { parseArgs } from 'node:util';
import {
  checkNode,
  cpuByPid,
  machine,
  max,
  median,
  mib,
  onInterrupt,
  processTree,
  procStatusKiB,
  requireBuild,
  spawnServer,
  systemCpuSeconds,
  waitFor200,
  waitForQuiet,
  type Mode,
  type SpawnedServer,
} from './lib.ts';

const TARGET_MS = 15_000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    mode: { type: 'string', default: 'both' },
    timeout: { type: 'string', default: '60' },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '300' },
  },
});

/** The server of the run in progress, stopped on Ctrl-C or failure. */
let current: SpawnedServer | null = null;

type Run = {
  mode: Mode;
  run: number;
  listeningMs: number | null;
  first200Ms: number;
  secondMs: number;
  rssAtFirst200KiB: number | null;
  /** CPU seconds the server (and its children) used until the first 200. */
  serverCpuS: number;
  /** CPU the rest of the machine used meanwhile, in % of one core (noise). */
  otherCpuPct: number;
};

async function oneRun(mode: Mode, run: number, timeoutMs: number): Promise<Run> {
  const machine0 = systemCpuSeconds();
  const self0 = process.cpuUsage();
  // LOG_LEVEL=info so the "listening" line marks when the HTTP server is up (migrations done).
  const server = await spawnServer(mode, { LOG_LEVEL: 'info' });
  current = server;
  try {
    const at200 = await waitFor200(server, '/', timeoutMs);
    const machine1 = systemCpuSeconds();
    const selfCpu = process.cpuUsage(self0);
    const serverCpuS = [...cpuByPid(processTree(server.child.pid!)).values()].reduce((a, b) => a + b, 0);
    const otherCpuS = Math.max(0, machine1.busy - machine0.busy - serverCpuS - (selfCpu.user + selfCpu.system) / 1e6);
    const rss = procStatusKiB(server.child.pid!);
    // A second request shows the warm cost, so the first-request share of the cold start is visible.
    const t = performance.now();
    const res = await fetch(server.url + '/');
    await res.arrayBuffer();
    const secondMs = performance.now() - t;
    const listening = server.listeningAt();
    return {
      mode,
      run,
      listeningMs: listening === null ? null : listening - server.spawnedAt,
      first200Ms: at200 - server.spawnedAt,
      secondMs,
      rssAtFirst200KiB: rss?.VmHWM ?? null,
      serverCpuS,
      otherCpuPct: Math.round((otherCpuS / ((at200 - server.spawnedAt) / 1000)) * 100),
    };
  } finally {
    await server.stop();
    current = null;
  }
}

onInterrupt(async () => {
  await current?.stop();
});

async function main() {
  checkNode();
  const runs = Number(args.runs);
  const timeoutMs = Number(args.timeout) * 1000;
  if (!Number.isInteger(runs) || runs < 1 || !(timeoutMs > 0)) throw new Error('--runs must be a positive integer and --timeout a positive number of seconds');
  const modes: Mode[] =
    args.mode === 'both' ? ['development', 'production'] : args.mode === 'development' || args.mode === 'production' ? [args.mode] : [];
  if (modes.length === 0) throw new Error('--mode must be both, development or production');
  if (modes.includes('production')) requireBuild();

  console.log(`cold start: ${runs} run(s) per mode, fresh DATA_DIR each run; ${machine()}`);
  const maxWait = Number(args['max-wait']);
  const all: Run[] = [];
  for (const mode of modes) {
    for (let i = 1; i <= runs; i++) {
      if (maxWait > 0) await waitForQuiet(maxWait);
      const r = await oneRun(mode, i, timeoutMs);
      all.push(r);
      console.log(
        `  ${mode.padEnd(11)} run ${i}: listening ${r.listeningMs === null ? '?' : (r.listeningMs / 1000).toFixed(2) + ' s'}, ` +
          `first 200 on / ${(r.first200Ms / 1000).toFixed(2)} s, next / ${r.secondMs.toFixed(0)} ms, ` +
          `peak RSS so far ${r.rssAtFirst200KiB === null ? '?' : mib(r.rssAtFirst200KiB)}, ` +
          `server CPU ${r.serverCpuS.toFixed(1)} s, other processes ${r.otherCpuPct}% of a core`,
      );
      if (r.otherCpuPct > 20) console.warn(`    warning: other processes were busy during this run; its time is inflated.`);
    }
  }

  console.log('\nsummary (spawn -> first 200 on /):');
  let missed = false;
  const summary = modes.map((mode) => {
    const runsOf = all.filter((r) => r.mode === mode);
    const firsts = runsOf.map((r) => r.first200Ms);
    const listens = runsOf.map((r) => r.listeningMs).filter((v): v is number => v !== null);
    const ok = max(firsts) <= TARGET_MS;
    if (!ok) missed = true;
    const line = {
      mode,
      runs: runsOf.length,
      medianMs: Math.round(median(firsts)),
      maxMs: Math.round(max(firsts)),
      medianListeningMs: listens.length ? Math.round(median(listens)) : null,
      targetMs: TARGET_MS,
      pass: ok,
    };
    console.log(
      `  ${mode.padEnd(11)} median ${(line.medianMs / 1000).toFixed(2)} s, max ${(line.maxMs / 1000).toFixed(2)} s ` +
        `(median listening ${line.medianListeningMs === null ? '?' : (line.medianListeningMs / 1000).toFixed(2) + ' s'}) ` +
        `target <= ${TARGET_MS / 1000} s: ${ok ? 'PASS' : 'MISSED'}`,
    );
    return line;
  });
  if (args.json) console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), summary, runs: all }, null, 2));
  if (missed && args.strict) process.exit(2);
}

main().catch(async (error: unknown) => {
  console.error('cold-start benchmark failed:', error instanceof Error ? error.message : error);
  await current?.stop();
  process.exit(1);
});
