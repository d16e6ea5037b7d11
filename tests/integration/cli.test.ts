import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo, type Prompts } from '../../cli/program.ts';
import { DEMO_BUSINESS } from '../../cli/commands/db.ts';
import { migrationsList } from '../../migrations/index.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let app: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  app = await createTestApp();
  env = cliEnv(app);
});
afterAll(async () => {
  await app?.close();
});

const cli = (args: string[], io: Partial<CliIo> = {}) => runCli(env, args, io);

describe('reward-cli accounts create', () => {
  it('creates an owner who can then sign in', async () => {
    const res = await cli(['accounts', 'create', '--name', 'Crumb & Co Bakery', '--email', 'Owner@Example.com', '--password', 'correct horse battery']);
    expect(res).toMatchObject({ code: EXIT.ok, err: '' });
    expect(res.out).toContain("Created account for 'Crumb & Co Bakery' <owner@example.com>");
    const business = await app.context().accounts.signIn('owner@example.com', 'correct horse battery');
    expect(business).toMatchObject({ email: 'owner@example.com', displayName: 'Crumb & Co Bakery' });
    expect(await app.context().accounts.signIn('owner@example.com', 'wrong password')).toBeNull();
  });

  it('refuses a duplicate email with exit code 1', async () => {
    const flags = ['--name', 'First', '--email', 'taken@example.com', '--password', 'correct horse battery'];
    expect((await cli(['accounts', 'create', ...flags])).code).toBe(EXIT.ok);
    const res = await cli(['accounts', 'create', '--name', 'Second', '--email', 'TAKEN@example.com', '--password', 'another password']);
    expect(res.code).toBe(EXIT.failure);
    expect(res.err).toContain('An account with this email already exists');
    expect((await app.context().accounts.byEmail('taken@example.com'))?.displayName).toBe('First');
  });

  it.each([
    [['--name', 'Bad Email', '--email', 'not-an-email', '--password', 'correct horse battery'], '--email: Invalid email address'],
    [['--name', 'Short', '--email', 'short@example.com', '--password', 'short'], '--password: Password must be at least 8 characters'],
    [['--name', 'Common', '--email', 'common@example.com', '--password', 'password123'], '--password: This password is too common. Please choose one that is harder to guess.'],
    [['--name', 'Same', '--email', 'same@example.com', '--password', 'Same@Example.com'], '--password: Password must not be your email address'],
    [['--name', 'Blank', '--email', 'blank@example.com', '--password', '          '], '--password: Password cannot be only spaces'],
    [['--name', '  ', '--email', 'blank@example.com', '--password', 'correct horse battery'], '--name: Business name is required'],
  ])('rejects %j with the spec message and exit code 2', async (flags, message) => {
    const res = await cli(['accounts', 'create', ...flags]);
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain(message);
    expect(res.out).toBe('');
  });

  it('without a terminal, missing flags are a usage error (exit code 2) and nothing is asked', async () => {
    const asked: string[] = [];
    const prompts: Prompts = {
      input: async ({ message }) => (asked.push(message), 'x'),
      password: async ({ message }) => (asked.push(message), 'x'),
    };
    const res = await cli(['accounts', 'create', '--email', 'nottty@example.com'], { prompts });
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain('Missing --name, --password');
    expect(asked).toEqual([]);
    expect(await app.context().accounts.byEmail('nottty@example.com')).toBeNull();
  });

  it('on a terminal, asks only for what the flags leave out', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = { 'Business name': 'Prompted Pies', Password: 'prompted password', 'Confirm password': 'prompted password' };
    const answer = async ({ message, validate }: { message: string; validate?: (v: string) => boolean | string }) => {
      asked.push(message);
      const value = answers[message] ?? '';
      expect(validate?.(value) ?? true).toBe(true);
      return value;
    };
    const res = await cli(['accounts', 'create', '--email', 'prompted@example.com'], { interactive: true, prompts: { input: answer, password: answer } });
    expect(res.code).toBe(EXIT.ok);
    expect(asked).toEqual(['Business name', 'Password', 'Confirm password']);
    expect(await app.context().accounts.signIn('prompted@example.com', 'prompted password')).toMatchObject({ displayName: 'Prompted Pies' });
  });

  it("reports a mistyped prompted confirmation with the spec's message", async () => {
    const typed: Record<string, string> = { Password: 'prompted password', 'Confirm password': 'prompted passw0rd' };
    const prompts: Prompts = { input: async () => 'unused', password: async ({ message }) => typed[message] ?? '' };
    const res = await cli(['accounts', 'create', '--name', 'Typo', '--email', 'typo@example.com'], { interactive: true, prompts });
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain("Passwords don't match");
  });
});

describe('reward-cli db', () => {
  it('seeds the demo business once; running it again changes nothing', async () => {
    const first = await cli(['db', 'seed']);
    expect(first.code).toBe(EXIT.ok);
    expect(first.out).toContain(DEMO_BUSINESS.email);
    expect(first.out).toContain(`password: ${DEMO_BUSINESS.password}`);
    const demo = await app.context().accounts.signIn(DEMO_BUSINESS.email, DEMO_BUSINESS.password);
    expect(demo).toMatchObject({ displayName: 'Demo Cafe' });

    const second = await cli(['db', 'seed']);
    expect(second.code).toBe(EXIT.ok);
    expect(second.out).toContain('already exists');
    expect((await app.context().accounts.byEmail(DEMO_BUSINESS.email))?.id).toBe(demo?.id);
  });

  it('reports an up-to-date database', async () => {
    const res = await cli(['db', 'migrate']);
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).toContain('Database is up to date');
  });

  it('on a new embedded database, migrate applies the migrations, and other commands wait for it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-cli-'));
    const fresh = { ...env, DATA_DIR: dataDir, DATABASE_URL: '' };
    try {
      const early = await cli(['db', 'seed'], { env: fresh });
      expect(early.code).toBe(EXIT.failure);
      expect(early.err).toContain('pending migration');

      const first = await cli(['db', 'migrate'], { env: fresh });
      expect(first.code).toBe(EXIT.ok);
      expect(first.out).toContain('embedded PostgreSQL');
      // Every migration of migrations/index.ts, in order.
      expect(first.out).toContain(`Applied ${migrationsList.length} migration(s):`);
      expect(first.out.match(/Migration\d{14}\w+/g)).toEqual(migrationsList.map((m) => m.name));

      const again = await cli(['db', 'migrate'], { env: fresh });
      expect(again.out).toContain('Database is up to date');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names a bad environment variable and exits with code 2', async () => {
    const res = await cli(['db', 'migrate'], { env: { ...env, DATABASE_URL: 'mysql://nope' } });
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain('DATABASE_URL');
  });

  it('treats an unknown command as a usage error', async () => {
    const res = await cli(['db', 'drop']);
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain("unknown command 'drop'");
  });
});

describe('the reward-cli bin', () => {
  it('prints help listing the commands', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(projectDir, 'cli/bin.mjs'), '--help'], { cwd: projectDir });
    expect(stdout).toContain('Usage: reward-cli');
    for (const command of ['db', 'accounts', 'db migrate', 'db seed', 'accounts create']) expect(stdout).toContain(command);
    expect(stdout).toContain('Exit codes');
  });
});
