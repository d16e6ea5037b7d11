import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Issue 28 item 6, ADR 095: one module graph for server code in development. A route's import of
// modules/ gets the module Node loaded for the server, not a copy compiled by Vite. Checked in a
// plain Node process (this test runner compiles its own copies), as `npm run dev` runs.

const run = promisify(execFile);

/** Runs `code` as an ES module in a fresh Node process at the project's root; its last line is JSON. */
async function inNode(code: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], { cwd: process.cwd(), timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

const setup = `
  import { createServer } from 'vite';
  import { devServerBuild } from './server/dev-build.ts';
  const vite = await createServer({ server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom', logLevel: 'silent' });
  const native = await import('./modules/shared/index.ts');
`;

describe('one module graph in development', () => {
  it('a module app/ re-exports from modules/ is the one Node loaded, through the development build; Vite’s own ssrLoadModule would make a copy', async () => {
    const result = await inNode(`${setup}
      const dev = devServerBuild(vite, process.cwd());
      const viaRunner = await dev.runner.import('/app/utils/input.server.ts');
      const viaVite = await vite.ssrLoadModule('/app/utils/input.server.ts');
      const build = await dev.build();
      await vite.close();
      console.log(JSON.stringify({ runner: viaRunner.isUnstorable === native.isUnstorable, vite: viaVite.isUnstorable === native.isUnstorable, routes: Object.keys(build.routes).length }));
    `);
    expect(result).toMatchObject({ runner: true, vite: false });
    expect((result as { routes: number }).routes).toBeGreaterThan(50);
  }, 150_000);
});
