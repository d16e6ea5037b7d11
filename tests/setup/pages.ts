/**
 * The pages as a browser gets them: the Express pipeline (`createHttpApp`) in front of Vite's SSR
 * build of app/, listening on a free loopback port. For integration tests that read rendered HTML.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer as createVite } from 'vite';
import type { Root } from '../../server/composition.ts';
import { createHttpApp } from '../../server/http.ts';
import { devServerBuild } from '../../server/dev-build.ts';

export type PageServer = { base: string; close(): Promise<void> };

export async function servePages(root: Root): Promise<PageServer> {
  const vite = await createVite({ server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom', logLevel: 'silent' });
  // As the development server loads it (ADR 095): app/ through Vite, server code by Node.
  const server = createHttpApp(root, { build: devServerBuild(vite, process.cwd()).build }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await vite.close();
    },
  };
}
