import type { EntityManager } from '@mikro-orm/core';
import { createAccounts } from '../modules/accounts/server.ts';
import { createAnalytics } from '../modules/analytics/index.ts';
import { createBillingService } from '../modules/billing/server.ts';
import { createBranding } from '../modules/branding/server.ts';
import { createPos, createPosOperations } from '../modules/pos/server.ts';
import { createResponses, createVerificationReplay, createVerifications } from '../modules/responses/server.ts';
import { createRewardOperations, createRewards, rewardIssued } from '../modules/rewards/server.ts';
import { surveyTierReport } from '../modules/scoring/index.ts';
import { createSurveys } from '../modules/surveys/server.ts';
import { withRequestId } from '../modules/jobs/index.ts';
import type { Root } from './root.ts';
import { rewardParts } from './workers.ts';

/**
 * The module services over one forked EntityManager (ADR 055): what a request's loaders and actions
 * reach through `context`, and the one way the CLI reaches modules (`withServices` in cli/runtime.ts).
 */
export function createServices(root: Root, em: EntityManager = root.db.orm.em.fork(), logger: Root['logger'] = root.logger, jobs: Root['jobs'] = root.jobs) {
  const { config } = root;
  // The save's rules (ADR 089): scoring's fairness check (scoring reads surveys' template, so surveys
  // is handed it here) and whether this server has the hosted vision verifier (ADR 066).
  const surveys = createSurveys({ em, rules: { tierReport: surveyTierReport, hostedVisionAvailable: root.visionVerifier !== null } });
  return {
    accounts: createAccounts({ em, mailer: root.mailer, appUrl: config.APP_URL, logger }),
    surveys,
    responses: createResponses({ em, jobs, logger }),
    verifications: createVerifications({ em, verifier: root.verifier, visionVerifier: root.visionVerifier, blobStore: root.blobStore, logger }),
    branding: createBranding({ em, blobStore: root.blobStore, logger }),
    billing: createBillingService({ em, billing: root.billing, mailer: root.mailer, appUrl: config.APP_URL, logger, ownsSurvey: surveys.owns }),
    /** The owner's analytics (issue 12): figures computed in SQL, every query scoped to the business id given. */
    analytics: createAnalytics({ em, blobStore: root.blobStore, funnelCounts: root.funnelCounts }),
    rewards: createRewards({
      em,
      logger,
      appUrl: config.APP_URL,
      squareWebhookSignatureKey: config.SQUARE_WEBHOOK_SIGNATURE_KEY ?? null,
      jobs,
    }),
    pos: createPos({
      em,
      connector: root.pos,
      demoConsent: root.pos.demoConsent ?? null,
      keyBase64: config.TOKEN_ENCRYPTION_KEY,
      callbackUrl: new URL('/api/square/callback', config.APP_URL).toString(),
      logger,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * What `reward-cli` reaches (ADR 056): the same services, plus the operator's use cases that act on
 * any business (reward listing, issue and retry; verification replay; a Square connection report).
 */
export function createOperatorServices(root: Root) {
  const em = root.db.orm.em;
  return {
    ...createServices(root),
    rewardOperations: createRewardOperations({ ...rewardParts(root), jobs: root.jobs }),
    verificationReplay: createVerificationReplay({ em, createVerifier: root.createVerifier, blobStore: root.blobStore, jobs: root.jobs, rewardIssued }),
    posOperations: createPosOperations({ em }),
  };
}

export type OperatorServices = ReturnType<typeof createOperatorServices>;

/** What a loader or action sees as `context`: request-scoped services over one forked EntityManager. */
export function createRequestContext(
  root: Root,
  extra: { cspNonce: string; clientIp: string; surveyIsland?: string | null; surveyIslandTranslator?: string | null; surveyIslandCss?: string | null; requestId?: string; logger?: Root['logger'] },
) {
  // The request's logger (server/http.ts: a child of the root's with the request id), for the
  // context and for every service built for this request; the root's where there is no HTTP request.
  const logger = extra.logger ?? root.logger;
  return {
    cspNonce: extra.cspNonce,
    clientIp: extra.clientIp,
    /** The X-Request-Id of this request (server/http.ts); null outside HTTP (tests calling loaders). */
    requestId: extra.requestId ?? null,
    /** The survey page's island script (production build); null: survey pages hydrate through Remix. */
    surveyIsland: extra.surveyIsland ?? null,
    /** The island's i18next chunk, preloaded by survey pages in a language other than English (ADR 084). */
    surveyIslandTranslator: extra.surveyIslandTranslator ?? null,
    /** The survey page's own stylesheet, inlined in its HTML with the island (ADR 092); not loader data, so no other page carries it. */
    surveyIslandCss: extra.surveyIslandCss ?? null,
    config: {
      appUrl: root.config.APP_URL,
      production: root.config.NODE_ENV === 'production',
      uploadBodyLimitBytes: root.config.UPLOAD_BODY_LIMIT_BYTES,
      sessionSecret: root.config.SESSION_SECRET,
      googleClientId: root.config.GOOGLE_CLIENT_ID ?? null,
      googleClientSecret: root.config.GOOGLE_CLIENT_SECRET ?? null,
      billing: root.billing.id,
      stripePublishableKey: root.billing.publishableKey,
      supportEmail: root.config.SUPPORT_EMAIL,
      /** An owner may choose the hosted vision verifier (ADR 066): SCREENSHOT_VISION_API_KEY is set. */
      hostedVisionAvailable: root.visionVerifier !== null,
    },
    logger,
    sessions: root.sessions,
    rateLimiter: root.rateLimiter,
    signInThrottle: root.signInThrottle,
    googleIdTokens: root.googleIdTokens,
    outbox: root.config.NODE_ENV === 'production' ? null : root.outbox,
    /** The fake's card confirmation and portal page (BILLING=fake only). */
    fakeBilling: root.localBilling,
    // Jobs this request queues carry its id (their log lines name it).
    ...createServices(root, root.db.orm.em.fork(), logger, root.jobs && extra.requestId ? withRequestId(root.jobs, extra.requestId) : root.jobs),
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
