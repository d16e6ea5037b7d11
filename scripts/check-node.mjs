// Fails loudly when npm scripts run on a Node.js other than the pinned major.
// The `node` devDependency puts Node 24 in node_modules/.bin; installs with
// --ignore-scripts, --omit=dev or NODE_ENV=production drop it and npm silently
// falls back to the machine's Node.
const required = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major !== required) {
  console.error(
    `RewardLoop needs Node.js ${required}.x but this is ${process.version} (${process.execPath}).\n` +
      `Run 'npm install' (with dev dependencies and install scripts) so that the pinned Node from the 'node' devDependency is used.`,
  );
  process.exit(1);
}
