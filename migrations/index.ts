import { Migration20261121000000Initial } from './Migration20261121000000Initial.ts';
import { Migration20261122000000ScreenshotVerifications } from './Migration20261122000000ScreenshotVerifications.ts';
import { Migration20261122010000Pos } from './Migration20261122010000Pos.ts';
import { Migration20261122020000Rewards } from './Migration20261122020000Rewards.ts';

/** Every migration in order. Listed explicitly so the server, the CLI and tests load the same set. */
export const migrationsList = [
  { name: 'Migration20261121000000Initial', class: Migration20261121000000Initial },
  { name: 'Migration20261122000000ScreenshotVerifications', class: Migration20261122000000ScreenshotVerifications },
  { name: 'Migration20261122010000Pos', class: Migration20261122010000Pos },
  { name: 'Migration20261122020000Rewards', class: Migration20261122020000Rewards },
];
