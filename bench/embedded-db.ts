/**
 * The embedded database (issue 10): cold start to the first 200 on `/` on a fresh DATA_DIR and on a
 * restart over the same folder, and the peak memory of the app with its database (the whole
 * process tree: with the embedded PostgreSQL its server processes are the app's descendants) from
 * spawn until 2 s after the first 200: the sum of each process's peak RSS (VmHWM, an upper bound
 * of the tree's peak) and the tree's PSS (shared buffers split fairly) sampled every 0.5 s.
 *
 *   node bench/embedded-db.ts [--runs 3] [--mode both|development|production] [--before <checkout>]
 *                             [--max-wait 0] [--json]
 *
 * --before runs the same measurements on another checkout of the project (e.g. a worktree of the
 * commit before a change, with its own node_modules and build), interleaved run by run with this
 * one, so both see the same machine. Production mode needs `npm run build` in each checkout.
 */
import { parseArgs } from 'node:util';
import {
  checkNode,
  machine,
  median,
  mib,
  onInterrupt,
  requireBuild,
  spawnServer,
  systemCpuSeconds,
  treeMemoryKiB,
  waitFor200,
  waitForQuiet,
  type Mode,
  type SpawnedServer,
} from './lib.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    mode: { type: 'string', default: 'both' },
    before: { type: 'string' },
    'max-wait': { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
  },
});

let current: SpawnedServer | null = null;
onInterrupt(async () => {
  await current?.stop();
});

type Boot = { first200Ms: number; peakRssKiB: number; peakPssKiB: number; otherCpuPct: number };

/** Boots one server (fresh folder unless `dataDir`), measures, stops it and keeps the folder. */
async function boot(mode: Mode, cwd: string | undefined, dataDir?: string): Promise<{ boot: Boot; dataDir: string }> {
  const machine0 = systemCpuSeconds();
  const server = await spawnServer(mode, { LOG_LEVEL: 'info' }, { cwd, dataDir });
  current = server;
  let peakRss = 0;
  let peakPss = 0;
  const sample = () => {
    const m = treeMemoryKiB(server.child.pid!);
    peakRss = Math.max(peakRss, m.hwm);
    peakPss = Math.max(peakPss, m.pss);
  };
  // Reading /proc costs CPU that a boot on a 2-core machine feels (every 50 ms doubled the time to
  // the first 200): PSS is sampled twice a second, and each process's own peak (VmHWM) is exact.
  const sampler = setInterval(sample, 500);
  try {
    const at200 = await waitFor200(server, '/', 90_000);
    const first200Ms = at200 - server.spawnedAt;
    await new Promise((r) => setTimeout(r, 2000));
    sample();
    const machine1 = systemCpuSeconds();
    const elapsedS = (performance.now() - server.spawnedAt) / 1000;
    // Rough noise figure: the machine's busy CPU beyond one core's worth for the server itself.
    const otherCpuPct = Math.max(0, Math.round(((machine1.busy - machine0.busy) / elapsedS - 1) * 100));
    return { boot: { first200Ms, peakRssKiB: peakRss, peakPssKiB: peakPss, otherCpuPct }, dataDir: server.dataDir };
  } finally {
    clearInterval(sampler);
    await server.stop({ keepDataDir: true });
    current = null;
  }
}

async function main() {
  checkNode();
  const runs = Number(args.runs);
  const modes: Mode[] = args.mode === 'both' ? ['development', 'production'] : [args.mode as Mode];
  if (modes.includes('production')) requireBuild();
  const trees: Array<{ label: string; cwd: string | undefined }> = [{ label: 'this checkout', cwd: undefined }];
  if (args.before) trees.unshift({ label: `before (${args.before})`, cwd: args.before });
  console.log(`embedded database: ${runs} run(s) per mode and checkout; ${machine()}; ${new Date().toISOString()}`);
  const results: Array<{ tree: string; mode: Mode; fresh: Boot; restart: Boot }> = [];
  const { rmSync } = await import('node:fs');
  for (const mode of modes) {
    for (let i = 1; i <= runs; i++) {
      for (const tree of trees) {
        if (Number(args['max-wait']) > 0) await waitForQuiet(Number(args['max-wait']));
        const fresh = await boot(mode, tree.cwd);
        const restart = await boot(mode, tree.cwd, fresh.dataDir);
        rmSync(fresh.dataDir, { recursive: true, force: true });
        results.push({ tree: tree.label, mode, fresh: fresh.boot, restart: restart.boot });
        const f = (b: Boot) => `${(b.first200Ms / 1000).toFixed(2)} s, peak RSS ${mib(b.peakRssKiB)} / peak PSS ${mib(b.peakPssKiB)} (other ${b.otherCpuPct}%)`;
        console.log(`  ${mode} run ${i}, ${tree.label}: fresh ${f(fresh.boot)}; restart ${f(restart.boot)}`);
      }
    }
  }
  console.log('\nmedians:');
  for (const mode of modes) {
    for (const tree of trees) {
      const of = results.filter((r) => r.mode === mode && r.tree === tree.label);
      const m = (pick: (r: (typeof of)[number]) => number) => median(of.map(pick));
      console.log(
        `  ${mode.padEnd(11)} ${tree.label}: first 200 fresh ${(m((r) => r.fresh.first200Ms) / 1000).toFixed(2)} s, restart ${(m((r) => r.restart.first200Ms) / 1000).toFixed(2)} s; ` +
          `peak app + database RSS ${mib(m((r) => Math.max(r.fresh.peakRssKiB, r.restart.peakRssKiB)))}, PSS ${mib(m((r) => Math.max(r.fresh.peakPssKiB, r.restart.peakPssKiB)))}`,
      );
    }
  }
  if (args.json) console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), results }, null, 2));
}

main().catch(async (error: unknown) => {
  console.error('embedded-db benchmark failed:', error instanceof Error ? error.message : error);
  await current?.stop();
  process.exit(1);
});
