import { vitePlugin as remix } from '@remix-run/dev';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
  plugins: [
    tailwindcss(),
    remix({
      ignoredRouteFiles: ['**/*.test.*', '**/*.server.test.*'],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  build: { target: 'es2022' },
  // Pre-bundled up front so the first page in development does not trigger a re-optimise and reload.
  optimizeDeps: {
    include: ['react', 'react-dom', 'react-dom/client', '@remix-run/react', '@conform-to/react', '@conform-to/zod/v4', 'zod'],
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
    ],
  },
});
