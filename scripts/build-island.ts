// Builds the survey page's island (app/customer/island.tsx) into build/client/assets after
// `remix vite:build`, and records its URL in build/survey-island.json for the server.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Rollup } from 'vite';

const projectDir = path.resolve(import.meta.dirname, '..');
const output = (await build({
  configFile: false,
  root: projectDir,
  logLevel: 'warn',
  mode: 'production',
  esbuild: { jsx: 'automatic' },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'build/client',
    emptyOutDir: false,
    target: 'es2022',
    copyPublicDir: false,
    rollupOptions: {
      input: path.join(projectDir, 'app/customer/island.tsx'),
      output: {
        entryFileNames: 'assets/survey-island-[hash].js',
        chunkFileNames: 'assets/survey-island-[name]-[hash].js',
        // No chunk of a few hundred bytes the page must wait for: code shared by the entry and the
        // lazily loaded i18next translator (ADR 084) stays in the entry.
        experimentalMinChunkSize: 4096,
      },
    },
  },
})) as Rollup.RollupOutput | Rollup.RollupOutput[];
const outputs = Array.isArray(output) ? output : [output];
const entry = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk' && c.isEntry);
if (!entry) throw new Error('the island build produced no entry chunk');
// The i18next translator's chunk, loaded only for a language other than English: the page preloads it then (ADR 084).
const translator = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk' && c.isDynamicEntry && c.fileName.includes('translator'));
writeFileSync(path.join(projectDir, 'build/survey-island.json'), `${JSON.stringify({ file: `/${entry.fileName}`, ...(translator ? { translator: `/${translator.fileName}` } : {}) })}\n`);
console.log(`survey island: /${entry.fileName}`);
