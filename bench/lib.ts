/**
 * Shared helpers for the benchmarks in bench/: spawning the server the way a user runs it,
 * free ports, /proc readings and small statistics. Not a test helper: nothing here asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';

export const projectDir = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

export type Mode = 'development' | 'production';

export type SpawnedServer = {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  /** performance.now() when the "listening" log line arrived (needs LOG_LEVEL=info), else null. */
  listeningAt(): number | null;
  /** The last 64 KB of the server's stdout and stderr. */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; removes the data dir unless asked to keep it. Only the first call acts. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
};

const OUTPUT_CAP = 64 * 1024;

/**
 * Spawns `node server/index.ts` in the project folder on a free port and a fresh temp DATA_DIR
 * (so a fresh embedded PostgreSQL unless DATABASE_URL is given), or on `options.dataDir`, which the
 * returned server then owns (stop() removes it). Does not wait for anything.
 */
export async function spawnServer(
  mode: Mode,
  env: Record<string, string> = {},
  /** `cwd`: another checkout of the project to run (a before/after comparison). */
  options: { dataDir?: string; cwd?: string } = {},
): Promise<SpawnedServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'rl-bench-'));
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: mode,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    // An empty value counts as unset for the server's config: the embedded PostgreSQL unless the caller passes one.
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    // The load comes from one address: the edge rate limits (ADR 032) would answer 429 to a benchmark.
    EDGE_RATE_LIMITS: 'false',
    ...env,
  };
  if (mode === 'production') {
    fullEnv.SESSION_SECRET ??= 'bench-secret-bench-secret-bench-secret-0123';
    fullEnv.TOKEN_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString('base64');
    fullEnv.ALLOW_DEMO_ADAPTERS ??= 'true';
  } else {
    // Vite's HMR websocket defaults to 24678; a developer's own dev server may already hold it.
    fullEnv.HMR_PORT ??= String(await freePort());
  }
  let output = '';
  let listeningAt: number | null = null;
  const append = (chunk: Buffer) => {
    const text = chunk.toString();
    if (listeningAt === null && text.includes('RewardLoop listening')) listeningAt = performance.now();
    output += text;
    if (output.length > OUTPUT_CAP) output = output.slice(-OUTPUT_CAP);
  };
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['server/index.ts'], {
    cwd: options.cwd ?? projectDir,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    child,
    spawnedAt,
    listeningAt: () => listeningAt,
    output: () => output,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        }
        if (!stopOptions.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/**
 * Polls `path` until it answers 200 and returns performance.now() at that moment. A refused
 * connection is retried every 20 ms; a request that connects is awaited (the first page in
 * development can take seconds to render). Throws when the server exits or the deadline passes.
 */
export async function waitFor200(server: SpawnedServer, urlPath: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited with code ${server.child.exitCode} before ${urlPath} answered 200:\n${server.output()}`);
    }
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      throw new Error(`${urlPath} did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${server.output()}`);
    }
    try {
      const res = await fetch(server.url + urlPath, { signal: AbortSignal.timeout(Math.ceil(remaining)), redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now();
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Fields of /proc/<pid>/status in KiB (VmRSS, VmHWM, ...); null when the process is gone. */
export function procStatusKiB(pid: number): Record<string, number> | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  try {
    const out: Record<string, number> = {};
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /^(\w+):\s+(\d+) kB$/.exec(line);
      if (m) out[m[1]!] = Number(m[2]);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Memory of a process tree in KiB (the app and, with the embedded database, its PostgreSQL
 * processes): `rss` adds up each process's resident set (shared pages counted once per process),
 * `hwm` each process's peak resident set (VmHWM), `pss` splits shared pages among the processes that map them (from smaps_rollup), which is the
 * fair sum for PostgreSQL's shared buffers.
 */
export function treeMemoryKiB(pid: number): { rss: number; hwm: number; pss: number; processes: number } {
  let rss = 0;
  let hwm = 0;
  let pss = 0;
  let processes = 0;
  for (const p of processTree(pid)) {
    try {
      const rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
      hwm += procStatusKiB(p)?.VmHWM ?? 0;
      processes += 1;
    } catch {
      /* exited meanwhile */
    }
  }
  return { rss, hwm, pss, processes };
}

/** user+system CPU time of a process in seconds, from /proc/<pid>/stat; null when gone. */
export function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** A process and its live descendants (e.g. the esbuild service Vite starts). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/** CPU seconds of a set of processes, by pid (processes that are gone count 0). */
export function cpuByPid(pids: number[]): Map<number, number> {
  return new Map(pids.map((p) => [p, procCpuSeconds(p) ?? 0]));
}

/** CPU seconds used between two readings of cpuByPid (a pid missing from `before` counts from 0). */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [p, v] of after) sum += Math.max(0, v - (before.get(p) ?? 0));
  return sum;
}

/** Nearest-rank percentile (NaN for no values). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const max = (values: number[]) => Math.max(...values);

export function mib(kib: number): string {
  return `${(kib / 1024).toFixed(0)} MiB`;
}

export function machine(): string {
  let distro: string = process.platform;
  try {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    distro = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(osRelease)?.[1] ?? distro;
  } catch {
    /* not Linux */
  }
  const gib = Math.round(totalmem() / 2 ** 30);
  return `${cpus().length}-core ${process.arch}, ${gib} GiB, ${distro}, Node ${process.versions.node}`;
}

/** Busy and total CPU time of the whole machine in seconds, from /proc/stat (all cores summed). */
export function systemCpuSeconds(): { busy: number; total: number } {
  try {
    const first = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...fields] = first.trim().split(/\s+/);
    const n = fields.slice(0, 8).map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** CPU use of the whole machine over `ms`, in % of one core. */
async function machineBusyPct(ms: number): Promise<number> {
  const a = systemCpuSeconds();
  await new Promise((r) => setTimeout(r, ms));
  const b = systemCpuSeconds();
  return ((b.busy - a.busy) / (ms / 1000)) * 100;
}

/**
 * Benchmarks on a small shared machine are only as good as its quiet: waits (up to `maxWaitS`)
 * until the machine uses under 20% of one core over 2 s, and says so when it never does.
 * Returns the last reading (% of one core) for the record.
 */
export async function waitForQuiet(maxWaitS: number): Promise<number> {
  const deadline = performance.now() + maxWaitS * 1000;
  let busy = await machineBusyPct(2000);
  let told = false;
  while (busy > 20 && performance.now() < deadline) {
    if (!told) console.log(`  waiting for the machine to be quiet (other processes use ${busy.toFixed(0)}% of a core; up to ${maxWaitS} s)…`);
    told = true;
    await new Promise((r) => setTimeout(r, 3000));
    busy = await machineBusyPct(2000);
  }
  if (busy > 20) console.warn(`warning: other processes use ${busy.toFixed(0)}% of a core; figures will be noisy.`);
  return Math.round(busy);
}

/** Refuses to run on an old Node: the project needs Node 24 (see package.json). */
export function checkNode(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    console.error(`Node ${process.versions.node} is too old: run with the project's Node 24 (export PATH=$PWD/node_modules/.bin:$PATH).`);
    process.exit(1);
  }
}

export function requireBuild(): void {
  if (!existsSync(path.join(projectDir, 'build/server/index.js'))) {
    console.error('No production build: run `npm run build` first.');
    process.exit(1);
  }
}

/**
 * Steps to undo at the end (stop servers, drop databases), run last-in first-out by `cleanup()`,
 * and on SIGINT/SIGTERM. A failing step is reported and the others still run.
 */
export function cleanupStack() {
  const cleanups: Array<() => Promise<void>> = [];
  async function cleanup() {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (error) {
        console.error('cleanup step failed:', error instanceof Error ? error.message : error);
      }
    }
  }
  onInterrupt(cleanup);
  return { cleanups, cleanup };
}

/** Runs cleanups once on SIGINT/SIGTERM, then exits 130. */
export function onInterrupt(cleanup: () => Promise<void>): void {
  let running = false;
  const handler = () => {
    if (running) return;
    running = true;
    console.error('\ninterrupted: cleaning up…');
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
