// Builder page JavaScript, gzipped: everything a browser downloads to run /survey-builder
// (the entry, the root route and the builder route with their imports). Target: under 150 KB.
// Run after `npm run build`: node bench/builder-bundle.ts [route-id ...]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

type Entry = { module: string; imports?: string[] };
type Manifest = { entry: Entry; routes: Record<string, Entry> };

const clientDir = path.resolve(import.meta.dirname, '../build/client');
const manifestFile = readdirSync(path.join(clientDir, 'assets')).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const source = readFileSync(path.join(clientDir, 'assets', manifestFile), 'utf8');
const manifest = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as Manifest;

function pageFiles(routeId: string): string[] {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`unknown route ${routeId}`);
  const files = new Set<string>();
  for (const e of [manifest.entry, manifest.routes.root!, route]) {
    files.add(e.module);
    for (const i of e.imports ?? []) files.add(i);
  }
  return [...files];
}

const routes = process.argv.slice(2).length ? process.argv.slice(2) : ['routes/_surveys+/survey-builder', 'routes/_surveys+/survey-management', 'routes/_auth+/auth'];
for (const id of routes) {
  let raw = 0;
  let gz = 0;
  for (const file of pageFiles(id)) {
    const bytes = readFileSync(path.join(clientDir, file));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`${id}: ${(gz / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw)`);
}
