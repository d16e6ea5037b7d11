import { Migration } from '@mikro-orm/migrations';

/**
 * Lossy copies of a rewarded screenshot (issue 13, ADR 067): `screenshot_verifications.image_fingerprint`,
 * the picture's small greyscale thumbnail ('fp1:192x416:<base64>'). Null for rows stored before it
 * (and for the fake verifier): those are found by their exact image hash only.
 */
export class Migration20261124170000ImageFingerprint extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "screenshot_verifications" add column "image_fingerprint" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "screenshot_verifications" drop column "image_fingerprint";`);
  }
}
