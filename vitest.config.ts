import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    setupFiles: ['./tests/setup/setup-test-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['modules/**/*.test.ts', 'app/**/*.test.ts', 'adapters/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        // One PostgreSQL server per run (embedded, or TEST_DATABASE_URL) and a database per test file.
        test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], globalSetup: ['./tests/setup/global-db-template.ts'] },
      },
      {
        // Real Chromium against the built app on the embedded database; needs `npm run build` first.
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['./tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          // A page re-renders after a click or a navigation; on a busy 2-core machine that can take more than
          // expect.poll's 1 s default (two CI runs failed on it). Playwright's own waits allow 30 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
