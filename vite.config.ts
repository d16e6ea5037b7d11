import { vitePlugin as remix } from '@remix-run/dev';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flatRoutes } from 'remix-flat-routes';
import { defineConfig, type Plugin } from 'vite';
import { SERVER_CODE_DIRS } from './server/dev-build.ts';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * One module graph in production (issue 28, item 6; ADR 095): the server build (build/server/index.js)
 * holds app/ only; what a route imports from modules/, adapters/, server/ or migrations/ stays an
 * import of the source file ('../../modules/surveys/index.ts'), which Node loads with the server's
 * own copy. Development does the same at its module runner (server/dev-build.ts).
 */
function serverCodeExternal(): Plugin {
  const projectDir = path.dirname(fileURLToPath(import.meta.url));
  const dirs = SERVER_CODE_DIRS.map((dir) => path.join(projectDir, dir) + path.sep);
  return {
    name: 'rewardloop:server-code-external',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!options.ssr || !importer || source.startsWith('\0')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      const file = resolved.id.replace(/[?#].*$/, '');
      return dirs.some((dir) => file.startsWith(dir)) ? { id: file, external: 'absolute' } : resolved;
    },
    // Written relative to the build's own folder, so the build runs wherever the project is.
    outputOptions(output) {
      const dir = output.dir;
      if (!dir) return null;
      return {
        ...output,
        paths: (id: string) => (dirs.some((d) => id.startsWith(d)) ? path.relative(dir, id).split(path.sep).join('/') : id),
      };
    },
  };
}

export default defineConfig({
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
  // A fresh dependency cache elsewhere (tests of the first start, a second checkout); default node_modules/.vite.
  ...(process.env.VITE_CACHE_DIR ? { cacheDir: process.env.VITE_CACHE_DIR } : {}),
  plugins: [
    serverCodeExternal(),
    tailwindcss(),
    remix({
      // Routes come from remix-flat-routes alone (Remix's own convention reads no file): flat file names as
      // before, grouped in `+` folders by area (`_auth+/auth.tsx` is /auth, `api+/auth.login.ts` is
      // /api/auth/login; ADR 094). A route's helpers may sit beside it: tests, `*.server.*`, `*.client.*` and
      // `__*` files are not routes, nor is a README (`*.md`).
      ignoredRouteFiles: ['**/*'],
      routes: async (defineRoutes) =>
        flatRoutes('routes', defineRoutes, { ignoredRouteFiles: ['**/.*', '**/*.css', '**/*.md', '**/*.test.*', '**/*.server.*', '**/*.client.*', '**/__*.*'] }),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  build: { target: 'es2022' },
  // Pre-bundled up front so the first page in development does not trigger a re-optimise and reload.
  optimizeDeps: {
    // '@remix-run/node' and the password list reach the dev client through route files' server-only
    // imports; bundling them up front keeps Vite from discovering them on the first page and reloading it
    // (tests/e2e/dev-server.e2e.ts checks that no page reloads on a fresh cache).
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      '@remix-run/react',
      '@remix-run/node',
      '@conform-to/react',
      '@conform-to/zod/v4',
      '@zxcvbn-ts/language-common',
      'zod',
      // The customer page's translator (modules/i18n/translator.ts, ADR 084) in other languages than English.
      'i18next',
    ],
    // Server-only packages: route files import them for loaders and actions, which never reach the
    // browser, but Vite's dependency scan reads the raw files and would try to bundle them.
    exclude: [
      '@node-rs/argon2',
      '@mikro-orm/core',
      '@mikro-orm/postgresql',
      '@napi-rs/canvas',
      'qrcode',
      'nodemailer',
      'jose',
      'pino',
      'remix-auth',
      'remix-auth-form',
      'remix-auth-google',
      // Reached through the modules' server faces (ADR 034) from route files' loaders and actions.
      'sharp',
      'file-type',
      'stripe',
      'square',
      'pg',
      'pg-boss',
      'tesseract.js',
      'rate-limiter-flexible',
      // Fraud checks (ADR 050): the perceptual hash and the disposable-domain list.
      'sharp-phash',
      'disposable-email-domains-js',
      '@mikro-orm/migrations',
    ],
  },
});
