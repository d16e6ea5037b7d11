// Builds the survey page's island (app/customer/island.tsx) into build/client/assets after
// `remix vite:build`, and the page's own stylesheet from the island's source files only; records
// both in build/survey-island.json for the server, which inlines the stylesheet (issue 29, ADR 092).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { build, type Rollup } from 'vite';

const projectDir = path.resolve(import.meta.dirname, '..');
const chunksOf = (output: Rollup.RollupOutput | Rollup.RollupOutput[]) => (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);

const jsOutput = chunksOf(
  (await build({
    configFile: false,
    root: projectDir,
    logLevel: 'warn',
    mode: 'production',
    esbuild: { jsx: 'automatic' },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // The island hydrates the server's React markup with Preact through its React compatibility layer:
    // the same components, a tenth of react-dom's weight on a phone (issue 29, ADR 092).
    resolve: {
      alias: [
        { find: /^react$/, replacement: 'preact/compat' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      ],
    },
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
  })) as Rollup.RollupOutput | Rollup.RollupOutput[],
);
const entry = jsOutput.find((c): c is Rollup.OutputChunk => c.type === 'chunk' && c.isEntry);
if (!entry) throw new Error('the island build produced no entry chunk');
// The i18next translator's chunk, loaded only for a language other than English: the page preloads it then (ADR 084).
const translator = jsOutput.find((c) => c.type === 'chunk' && c.isDynamicEntry && c.fileName.includes('translator'));

// The survey page's stylesheet: Tailwind over the files the island is made of (every class the page
// can show, in any state, is written in one of them) plus the two that render around it on the
// server (the root layout and the route). About a third of the whole app's stylesheet, small enough to
// travel inside the HTML, so a phone paints without waiting for a second request.
const sources = [
  ...new Set([
    ...jsOutput.flatMap((c) => (c.type === 'chunk' ? Object.keys(c.modules) : [])).filter((id) => id.startsWith(projectDir) && !id.includes('/node_modules/') && /\.(tsx?|jsx?)$/.test(id)),
    path.join(projectDir, 'app/root.tsx'),
    path.join(projectDir, 'app/customer/route.tsx'),
  ]),
].sort();
const workDir = path.join(projectDir, 'build/.survey-css');
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const rel = (file: string) => JSON.stringify(path.relative(workDir, file).split(path.sep).join('/'));
const cssEntry = path.join(workDir, 'survey.css');
writeFileSync(cssEntry, [`@import "tailwindcss" source(none);`, `@import ${rel(path.join(projectDir, 'app/theme.css'))};`, ...sources.map((s) => `@source ${rel(s)};`), ''].join('\n'));
const cssOutput = chunksOf(
  (await build({
    configFile: false,
    root: projectDir,
    logLevel: 'warn',
    mode: 'production',
    plugins: [tailwindcss()],
    build: { write: false, copyPublicDir: false, rollupOptions: { input: cssEntry } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[],
);
rmSync(workDir, { recursive: true, force: true });
const css = cssOutput.find((c): c is Rollup.OutputAsset => c.type === 'asset' && c.fileName.endsWith('.css'));
if (!css) throw new Error('the survey stylesheet build produced no CSS');
const cssText = typeof css.source === 'string' ? css.source : Buffer.from(css.source).toString('utf8');
// It goes inside a <style> element: nothing in it may end that element.
if (/<\/style/i.test(cssText)) throw new Error('the survey stylesheet contains "</style"');
const cssFile = `assets/survey-island-${createHash('sha256').update(cssText).digest('base64url').slice(0, 8)}.css`;
writeFileSync(path.join(projectDir, 'build/client', cssFile), cssText);

writeFileSync(
  path.join(projectDir, 'build/survey-island.json'),
  `${JSON.stringify({ file: `/${entry.fileName}`, ...(translator ? { translator: `/${translator.fileName}` } : {}), css: `/${cssFile}` })}\n`,
);
console.log(`survey island: /${entry.fileName}; its stylesheet /${cssFile} (${(cssText.length / 1024).toFixed(1)} KB from ${sources.length} files)`);
