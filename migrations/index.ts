import { Migration20261121000000Initial } from './Migration20261121000000Initial.ts';
import { Migration20261122000000ScreenshotVerifications } from './Migration20261122000000ScreenshotVerifications.ts';

/** Every migration in order. Listed explicitly so the server, the CLI and tests load the same set. */
export const migrationsList = [
  { name: 'Migration20261121000000Initial', class: Migration20261121000000Initial },
  { name: 'Migration20261122000000ScreenshotVerifications', class: Migration20261122000000ScreenshotVerifications },
];
