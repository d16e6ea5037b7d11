/**
 * The app's routes as Remix sees them: `remix routes --json` (the Vite plugin's own route config), flattened
 * into one row per route with its whole URL pattern (issue 28 item 7, ADR 094). Used by
 * tests/unit/route-urls.test.ts (no URL may change when route files move) and the hardening sweep.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const PROJECT_DIR = path.resolve(import.meta.dirname, '../..');
export const ROUTES_DIR = path.join(PROJECT_DIR, 'app/routes');

type ManifestRoute = { id: string; path?: string; file: string; index?: boolean; children?: ManifestRoute[] };

export type RouteRow = {
  /** The whole URL pattern (`/api/survey/config/:id/toggle`), parents' paths included. */
  url: string;
  index: boolean;
  /** The route file's flat name (`flatName`): the same before and after the files moved into folders. */
  module: string;
  /** The parent route's flat name (`root.tsx` for a top-level route). */
  parent: string;
};

/**
 * A route file's name as one flat-routes file name: the path under app/routes with each `+` folder joined
 * by dots, and an area folder that adds no URL segment (`_auth+`) left out. `api+/auth.login.ts` is
 * `api.auth.login.ts`, `_auth+/auth.google.tsx` is `auth.google.tsx`, a file at the top is its own name.
 */
export function flatName(file: string): string {
  const parts = file.replace(/^routes\//, '').split('/');
  const name = parts.pop()!;
  const folders = parts.map((folder) => folder.replace(/\+$/, '')).filter((folder) => !folder.startsWith('_'));
  return [...folders, name].join('.');
}

/** Every route of the app, from `remix routes --json`, sorted by URL then module. */
export function appRoutes(): RouteRow[] {
  const require = createRequire(import.meta.url);
  const cli = path.join(path.dirname(require.resolve('@remix-run/dev/package.json')), 'dist/cli.js');
  const out = execFileSync(process.execPath, [cli, 'routes', '--json'], { cwd: PROJECT_DIR, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'development' } });
  const tree = JSON.parse(out) as ManifestRoute[];
  const rows: RouteRow[] = [];
  const walk = (routes: ManifestRoute[], parentUrl: string, parent: string) => {
    for (const route of routes) {
      const url = route.path ? `${parentUrl.replace(/\/$/, '')}/${route.path}` : parentUrl;
      const module = route.id === 'root' ? 'root.tsx' : flatName(route.file);
      if (route.id !== 'root') rows.push({ url, index: route.index === true, module, parent });
      walk(route.children ?? [], url, module);
    }
  };
  walk(tree, '/', '');
  return rows.sort((a, b) => (a.url === b.url ? a.module.localeCompare(b.module) : a.url < b.url ? -1 : 1));
}

/** Every route file under app/routes (folders included) by its flat name, tests left out. */
export function routeFiles(): string[] {
  const files = readdirSync(ROUTES_DIR, { recursive: true, encoding: 'utf8' });
  return files
    .filter((f) => /\.(tsx?|jsx?)$/.test(f) && !/\.test\./.test(f) && !/\.server\./.test(f) && !/(^|\/)__/.test(f))
    .map((f) => flatName(`routes/${f.split(path.sep).join('/')}`))
    .sort();
}
