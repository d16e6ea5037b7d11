/**
 * Every URL the app answers, and which route module answers it (issue 28 item 7, ADR 094). The routes came
 * from `remix routes --json` (the Vite plugin's route config) and are kept in route-urls.json, written once
 * from the flat app/routes of before the move into area folders: a moved, renamed or re-nested route file
 * shows up here as a changed URL, a changed parent or a missing module.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoutes, flatName, routeFiles, type RouteRow } from '../setup/routes.ts';

const expected = JSON.parse(readFileSync(path.join(import.meta.dirname, 'route-urls.json'), 'utf8')) as RouteRow[];

describe('route URLs', () => {
  it('names a route file by its flat name wherever it sits', () => {
    expect(flatName('routes/api.survey.config.$id.toggle.ts')).toBe('api.survey.config.$id.toggle.ts');
    expect(flatName('routes/api+/survey.config.$id.toggle.ts')).toBe('api.survey.config.$id.toggle.ts');
    expect(flatName('routes/_auth+/auth.google.tsx')).toBe('auth.google.tsx');
    expect(flatName('routes/_marketing+/_index.tsx')).toBe('_index.tsx');
  });

  it('are exactly the URLs of before, each answered by the same module under the same parent', () => {
    const routes = appRoutes();
    expect(routes).toHaveLength(89);
    expect(routes).toEqual(expected);
  });

  it('come from every route file, and from nothing else', () => {
    expect(routeFiles()).toEqual(expected.map((r) => r.module).sort());
  });
});
