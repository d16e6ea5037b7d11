import { Migration } from '@mikro-orm/migrations';

/**
 * Screenshot verification's rejection codes (issue 13, ADR 028): the stored rows' old codes become
 * the issue's codes (the same table as LEGACY_REJECTION_CODES in modules/verification/port.ts,
 * copied here so this migration never changes). 'missing_field' and 'user_not_found' depended on
 * what was missing: a blank handle on a follow is 'wrong_account', on a tag 'author_mismatch'; a
 * blank review link 'not_posted'; a follow of another account 'wrong_account'. The reasons the customers saw are kept as they were.
 */
const LEGACY: Record<string, string> = {
  missing_field: 'name_mismatch',
  invalid_link: 'not_posted',
  link_wrong_platform: 'wrong_platform',
  unreadable_image: 'unreadable',
  ocr_timeout: 'unreadable',
  duplicate_image: 'duplicate',
  no_text: 'unreadable',
  not_platform: 'not_a_review',
  business_not_found: 'wrong_business',
  reviewer_not_found: 'name_mismatch',
  duplicate_review_text: 'duplicate',
  mention_not_found: 'missing_mention',
  user_not_found: 'author_mismatch',
  rejected: 'not_a_review',
};

export class Migration20261124000000RejectionCodes extends Migration {
  override async up(): Promise<void> {
    const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
    this.addSql(
      `update "screenshot_verifications" set "rejection_code" = case` +
        ` when "rejection_code" = 'missing_field' and "kind" = 'follow' then 'wrong_account'` +
        ` when "rejection_code" = 'missing_field' and "kind" = 'tag' then 'author_mismatch'` +
        ` when "rejection_code" = 'missing_field' and "reviewer_name" <> '' then 'not_posted'` +
        ` when "rejection_code" = 'business_not_found' and "kind" = 'follow' then 'wrong_account'` +
        Object.entries(LEGACY)
          .map(([from, to]) => ` when "rejection_code" = ${quote(from)} then ${quote(to)}`)
          .join('') +
        ` else "rejection_code" end where "rejection_code" is not null;`,
    );
  }

  override async down(): Promise<void> {
    // The old codes were finer in places (no_text vs ocr_timeout); a way back keeps the new ones.
  }
}
