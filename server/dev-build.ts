/**
 * One module graph in development (issue 28, item 6; ADR 095). Vite compiles app/ (routes, components)
 * on the fly; everything else a route imports from the server's side (modules/, adapters/, server/,
 * migrations/) is handed to Node's own `import()`, so the route gets the very module the server
 * loaded at start: one `SurveyConfig` class, one cache, one registry, as in production, where the
 * SSR build leaves those files out of build/server/index.js and imports them (vite.config.ts,
 * `serverCodeExternal`).
 *
 * Vite's `ssrLoadModule` would compile its own copy of each of those files instead. This is the same
 * module runner Vite uses for it (`vite/module-runner`, the SSR environment's `fetchModule`, no hot
 * reload), with one rule added at its transport: a server file is "externalized", i.e. imported by
 * Node. Server code is not reloaded on change (as before: restart `npm run dev`); app/ files are.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import type { ViteDevServer } from 'vite';
import { ESModulesEvaluator, ModuleRunner } from 'vite/module-runner';

/** The project's directories that hold server code: loaded by Node, never compiled by Vite. */
export const SERVER_CODE_DIRS = ['modules', 'adapters', 'server', 'migrations'] as const;

const serverCodeUrl = new RegExp(`^/(?:${SERVER_CODE_DIRS.join('|')})/[^?#]+\\.ts(?:[?#].*)?$`);

/** A Vite URL (`/modules/surveys/index.ts`) of server code, as a file URL Node can import; null for anything else. */
export function serverCodeFile(url: string, projectDir: string): string | null {
  if (!serverCodeUrl.test(url)) return null;
  return pathToFileURL(path.join(projectDir, url.replace(/[?#].*$/, ''))).href;
}

export type DevServerBuild = {
  /** The Remix server build, compiled afresh after an app/ file changes. */
  build: () => Promise<ServerBuild>;
  /** Imports any module through the same runner (tests). */
  runner: ModuleRunner;
};

export function devServerBuild(vite: ViteDevServer, projectDir: string): DevServerBuild {
  const ssr = vite.environments.ssr;
  const runner = new ModuleRunner(
    {
      transport: {
        async invoke(payload) {
          const call = payload.type === 'custom' ? (payload.data as { name?: string; data?: unknown[] }) : {};
          if (call.name !== 'fetchModule') return { error: { message: `The development runner does not answer ${String(call.name)}.` } };
          const [url, importer, options] = call.data as Parameters<typeof ssr.fetchModule>;
          const file = serverCodeFile(url, projectDir);
          if (file) return { result: { externalize: file, type: 'module' } };
          try {
            return { result: await ssr.fetchModule(url, importer, options) };
          } catch (error) {
            return { error };
          }
        },
      },
      hmr: false,
      sourcemapInterceptor: false,
    },
    new ESModulesEvaluator(),
  );
  return { build: () => runner.import('virtual:remix/server-build') as Promise<ServerBuild>, runner };
}
