import { Migration20261121000000Initial } from './Migration20261121000000Initial.ts';
import { Migration20261122000000ScreenshotVerifications } from './Migration20261122000000ScreenshotVerifications.ts';
import { Migration20261122010000Pos } from './Migration20261122010000Pos.ts';
import { Migration20261122020000Rewards } from './Migration20261122020000Rewards.ts';
import { Migration20261124000000PasswordReset } from './Migration20261124000000PasswordReset.ts';
import { Migration20261124000000RejectionCodes } from './Migration20261124000000RejectionCodes.ts';
import { Migration20261124000100SurveyArchive } from './Migration20261124000100SurveyArchive.ts';
import { Migration20261124000200EdgeRateLimits } from './Migration20261124000200EdgeRateLimits.ts';
import { Migration20261124000300Brand } from './Migration20261124000300Brand.ts';
import { Migration20261124060000AnalyticsFunnel } from './Migration20261124060000AnalyticsFunnel.ts';
import { Migration20261124063000Billing } from './Migration20261124063000Billing.ts';
import { Migration20261124070000AnalyticsAnswerCounts } from './Migration20261124070000AnalyticsAnswerCounts.ts';
import { Migration20261124120000QuestionTexts } from './Migration20261124120000QuestionTexts.ts';
import { Migration20261124121000ReviewPolicy } from './Migration20261124121000ReviewPolicy.ts';
import { Migration20261124123000Trust } from './Migration20261124123000Trust.ts';
import { Migration20261124130000ResponseQuestions } from './Migration20261124130000ResponseQuestions.ts';
import { Migration20261124140000HostedVision } from './Migration20261124140000HostedVision.ts';
import { Migration20261124170000ImageFingerprint } from './Migration20261124170000ImageFingerprint.ts';
import { Migration20261127080000JobSecrets } from './Migration20261127080000JobSecrets.ts';
import { Migration20261127081000DemoObjects } from './Migration20261127081000DemoObjects.ts';
import { Migration20261127090000BlobStore } from './Migration20261127090000BlobStore.ts';
import { Migration20261127100000VerificationVerdict } from './Migration20261127100000VerificationVerdict.ts';

/** Every migration in order. Listed explicitly so the server, the CLI and tests load the same set. */
export const migrationsList = [
  { name: 'Migration20261121000000Initial', class: Migration20261121000000Initial },
  { name: 'Migration20261122000000ScreenshotVerifications', class: Migration20261122000000ScreenshotVerifications },
  { name: 'Migration20261122010000Pos', class: Migration20261122010000Pos },
  { name: 'Migration20261122020000Rewards', class: Migration20261122020000Rewards },
  { name: 'Migration20261124000000PasswordReset', class: Migration20261124000000PasswordReset },
  { name: 'Migration20261124000000RejectionCodes', class: Migration20261124000000RejectionCodes },
  { name: 'Migration20261124000100SurveyArchive', class: Migration20261124000100SurveyArchive },
  { name: 'Migration20261124000200EdgeRateLimits', class: Migration20261124000200EdgeRateLimits },
  { name: 'Migration20261124000300Brand', class: Migration20261124000300Brand },
  { name: 'Migration20261124060000AnalyticsFunnel', class: Migration20261124060000AnalyticsFunnel },
  { name: 'Migration20261124063000Billing', class: Migration20261124063000Billing },
  { name: 'Migration20261124070000AnalyticsAnswerCounts', class: Migration20261124070000AnalyticsAnswerCounts },
  { name: 'Migration20261124120000QuestionTexts', class: Migration20261124120000QuestionTexts },
  { name: 'Migration20261124121000ReviewPolicy', class: Migration20261124121000ReviewPolicy },
  { name: 'Migration20261124123000Trust', class: Migration20261124123000Trust },
  { name: 'Migration20261124130000ResponseQuestions', class: Migration20261124130000ResponseQuestions },
  { name: 'Migration20261124140000HostedVision', class: Migration20261124140000HostedVision },
  { name: 'Migration20261124170000ImageFingerprint', class: Migration20261124170000ImageFingerprint },
  { name: 'Migration20261127080000JobSecrets', class: Migration20261127080000JobSecrets },
  { name: 'Migration20261127081000DemoObjects', class: Migration20261127081000DemoObjects },
  { name: 'Migration20261127090000BlobStore', class: Migration20261127090000BlobStore },
  { name: 'Migration20261127100000VerificationVerdict', class: Migration20261127100000VerificationVerdict },
];
