import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BillingError } from '../billing/index.ts';
import { DomainError } from './errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('domain errors are recognised across copies of their module (issue 25)', () => {
  it('a second copy of a module (as Vite bundles one for the routes) still makes instances of the first', async () => {
    // A query string makes the module loader evaluate the file again: a second BillingError class.
    const second = '../billing/port.ts?second-copy';
    const copy = (await import(/* @vite-ignore */ second)) as typeof import('../billing/index.ts');
    expect(copy.BillingError).not.toBe(BillingError);
    const fromCopy = new copy.BillingError('not_found', 'No such setupintent');
    expect(fromCopy instanceof BillingError).toBe(true);
    expect(new BillingError('declined', 'x') instanceof copy.BillingError).toBe(true);
    expect(fromCopy).toBeInstanceOf(DomainError);
    expect(fromCopy).toBeInstanceOf(Error);
    expect(fromCopy.name).toBe('BillingError');
    expect(fromCopy.code).toBe('not_found');
  });

  it('kinds do not mix: a BillingError is not a PosError, and plain errors are none', async () => {
    const { PosError } = await import('../pos/index.ts');
    expect(new BillingError('invalid', 'x') instanceof PosError).toBe(false);
    expect(new Error('x') instanceof BillingError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'BillingError', code: 'not_found' }) instanceof BillingError).toBe(false);
    expect((null as unknown) instanceof BillingError).toBe(false);
  });

  it('every exported error class of modules/ and adapters/ is a DomainError with a kind of its own', () => {
    const kinds = new Map<string, string>();
    const plain: string[] = [];
    for (const file of [...sources('modules'), ...sources('adapters')]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/export class (\w+) extends (\w+)/g)) {
        const [, name, base] = m;
        if (base === 'Error' && name !== 'DomainError') plain.push(`${path.relative(ROOT, file)}: ${name}`);
      }
      for (const m of text.matchAll(/static override readonly kind = '([^']+)'/g)) {
        const where = path.relative(ROOT, file);
        expect(kinds.get(m[1]!), `kind ${m[1]} declared in ${where} and ${kinds.get(m[1]!)}`).toBeUndefined();
        kinds.set(m[1]!, where);
      }
    }
    // A plain Error subclass would fail `instanceof` in the routes (a second copy), as BillingError did.
    expect(plain).toEqual([]);
    expect(kinds.size).toBeGreaterThanOrEqual(6);
  });
});
