#!/usr/bin/env node
// reward-cli entry point. Plain JS so that any Node can read it: on a Node other than 24 it
// re-runs itself with the project's pinned Node (the `node` devDependency), because the CLI
// imports TypeScript sources directly, which needs Node 24's type stripping.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);

if (major !== REQUIRED_MAJOR) {
  const pinnedNode = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  // The marker stops a loop should the pinned Node itself be the wrong major.
  if (existsSync(pinnedNode) && process.env.REWARD_CLI_REEXEC !== pinnedNode) {
    const child = spawnSync(pinnedNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, REWARD_CLI_REEXEC: pinnedNode },
    });
    if (child.error) {
      console.error(`reward-cli: could not start ${pinnedNode}: ${child.error.message}`);
      process.exitCode = 1;
    } else {
      process.exitCode = child.status ?? (child.signal === 'SIGINT' ? 130 : 1);
    }
  } else {
    console.error(
      `reward-cli needs Node.js ${REQUIRED_MAJOR}.x but this is ${process.version} (${process.execPath}).\n` +
        `Run 'npm install' in the project (with dev dependencies and install scripts) so that the pinned Node ` +
        `from the 'node' devDependency is available, or run reward-cli with a Node ${REQUIRED_MAJOR}.`,
    );
    process.exitCode = 1;
  }
} else {
  const { createCli } = await import('./program.ts');
  const cli = createCli();
  await cli.parseAsync(process.argv);
  process.exitCode = cli.exitCode;
}
