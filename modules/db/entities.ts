import { Business, Session } from '../accounts/server.ts';
import { BillingCheckout, BillingWebhookEvent } from '../billing/server.ts';
import { SurveyAnswerCount, SurveyFunnelCount } from '../analytics/server.ts';
import { CustomerSubmission, ScreenshotVerification, SurveyResponse } from '../responses/server.ts';
import { GiftCardIssuance, GiftCardRequest, SquareWebhookEvent } from '../rewards/server.ts';
import { SurveyConfig } from '../surveys/server.ts';
import { ResponseFingerprint, RewardAuditEntry, RewardHold } from '../trust/server.ts';

/** Every stored record of the product, registered with the ORM in one place. */
export const entities = [
  Business,
  Session,
  SurveyConfig,
  CustomerSubmission,
  SurveyResponse,
  ScreenshotVerification,
  GiftCardIssuance,
  GiftCardRequest,
  SquareWebhookEvent,
  BillingCheckout,
  BillingWebhookEvent,
  SurveyFunnelCount,
  SurveyAnswerCount,
  RewardHold,
  RewardAuditEntry,
  ResponseFingerprint,
];
