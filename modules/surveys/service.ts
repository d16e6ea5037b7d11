import { UniqueConstraintViolationException, type EntityManager, type RequiredEntityData } from '@mikro-orm/core';
import { isUuid } from '../shared/ids.ts';
import { SurveyConfig } from './entities.ts';
import type { SurveyConfigInput } from './schema.ts';
import { newShortCode, parseShortCode } from './short-codes.ts';
import { DEFAULT_REVIEW_POLICY, reviewPolicyOf, type ReviewPolicy } from './template.ts';
import { saveRefusal, type SaveRefusal, type SaveRules } from './save-rules.ts';
import { surveyLocales, type Locale } from '../i18n/index.ts';
import { translationsFor, type SurveyTranslations } from './translations.ts';

export { publishCheck, type PublishCheck } from './publish-check.ts';

/** The client shape of a survey config (spec section 3 "Survey config (client)"), reward values in cents. */
export type SurveyConfigView = {
  id: string;
  businessId: string;
  /** The code of the survey's short link `/s/{code}` (ADR 082), the link owners share and print. */
  shortCode: string;
  title: string;
  isActive: boolean;
  isPublished: boolean;
  publishedAt: string | null;
  isArchived: boolean;
  createdAt: string;
  updatedAt: string;
  surveyTemplateId: string;
  rewardMode: string;
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  redemptionWebsite: string | null;
  selectedReviewPlatforms: string[];
  selectedSocialPlatforms: string[];
  surveyFrequencyDays: number;
  /** Customers confirm their email (a link) before their gift card is sent (ADR 050). */
  verifyCustomerEmail: boolean;
  /** Screenshots read by the hosted vision model (ADR 066). */
  hostedVision: boolean;
  /** The languages the survey offers its customers, the default first (ADR 086). */
  languages: Locale[];
  /** The owner's translations of their own words, as they apply (ADR 090). */
  translations: SurveyTranslations;
  reviewUrls: Record<string, string>;
  socialHandles: Record<string, string>;
  customQuestions: unknown[];
  /** Who is offered part 3's review and follow steps (ADR 040). */
  reviewPolicy: ReviewPolicy;
  /** The owner's tier minimums; null: the template's. */
  tierThresholds: Record<string, number> | null;
};

export function toSurveyView(s: SurveyConfig): SurveyConfigView {
  return {
    id: s.id,
    businessId: s.businessId,
    shortCode: s.shortCode,
    title: s.title,
    isActive: s.isActive,
    isPublished: Boolean(s.publishedAt),
    publishedAt: s.publishedAt ? s.publishedAt.toISOString() : null,
    isArchived: Boolean(s.archivedAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    surveyTemplateId: s.surveyTemplateId,
    rewardMode: s.rewardMode,
    bronzeRewardValue: s.bronzeRewardValue,
    silverRewardValue: s.silverRewardValue,
    goldRewardValue: s.goldRewardValue,
    redemptionWebsite: s.redemptionWebsite ?? null,
    selectedReviewPlatforms: s.selectedReviewPlatforms,
    selectedSocialPlatforms: s.selectedSocialPlatforms,
    surveyFrequencyDays: s.surveyFrequencyDays,
    verifyCustomerEmail: s.verifyCustomerEmail,
    hostedVision: s.hostedVision,
    languages: surveyLocales(s.languages),
    translations: translationsFor(s),
    reviewUrls: s.reviewUrls,
    socialHandles: s.socialHandles,
    customQuestions: s.customQuestions,
    reviewPolicy: reviewPolicyOf(s),
    tierThresholds: s.tierThresholds ?? null,
  };
}

/** The input without the fields a client left out (an edit keeps them as stored). */
function given(input: SurveyConfigInput): Partial<SurveyConfigInput> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

/**
 * What `save` answers: the stored survey (`created`: it is new), a refusal by one of the save rules
 * (nothing stored), or `not_found` (an edit of a survey that is not this owner's).
 */
export type SaveOutcome = { status: 'saved'; survey: SurveyConfigView; created: boolean } | { status: 'refused'; refusal: SaveRefusal } | { status: 'not_found' };

/** Where a short link leads (ADR 082): the ids of the survey's public path. */
export type ShortLinkTarget = { businessId: string; surveyId: string };

/** The unique constraint on `survey_configs.short_code` (migration `Migration20261127140000SurveyShortCodes`). */
const SHORT_CODE_CONSTRAINT = 'survey_configs_short_code_unique';

/** Draws of a short code per new survey before giving up: one is taken once in about 2^44 / surveys. */
const SHORT_CODE_ATTEMPTS = 5;

/**
 * An owner's survey configs. Every read and write is scoped by businessId: another owner's survey
 * id behaves exactly like an unknown one (null). The one exception is `shortLink`, which reads what
 * a printed short link leads to, for anyone holding the code.
 */
export function createSurveys(deps: { em: EntityManager; rules: SaveRules; now?: () => Date; newShortCode?: () => string }) {
  const { em, rules } = deps;
  const now = deps.now ?? (() => new Date());
  const drawShortCode = deps.newShortCode ?? (() => newShortCode());

  async function owned(businessId: string, id: string): Promise<SurveyConfig | null> {
    if (!isUuid(id)) return null;
    return em.findOne(SurveyConfig, { id, businessId });
  }

  /**
   * Inserts a new survey with a fresh short code and returns it, managed. A code already taken (the
   * unique constraint says so, whichever instance took it) is drawn again, up to five times. A native
   * insert per attempt: a failed flush would leave the unit of work unable to insert the entity again.
   */
  async function insertWithShortCode(data: RequiredEntityData<SurveyConfig>): Promise<SurveyConfig> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Fields left undefined are left out, so the column defaults apply (as em.create would).
        const fields = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as RequiredEntityData<SurveyConfig>;
        const id = await em.insert(SurveyConfig, { ...fields, shortCode: drawShortCode() });
        return await em.findOneOrFail(SurveyConfig, { id });
      } catch (error) {
        const taken = error instanceof UniqueConstraintViolationException && error.message.includes(SHORT_CODE_CONSTRAINT);
        if (!taken || attempt >= SHORT_CODE_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * The one survey save (issue 28 item 1, ADR 089): creates a survey (`id` absent) or replaces an
   * edit's fields (what the input leaves out is kept), after every save rule (`saveRefusal`: hosted
   * vision availability, tier fairness). The builder page, the JSON API and the draft hand-over all
   * call it and only turn its answer into theirs.
   */
  function save(businessId: string, input: SurveyConfigInput): Promise<Exclude<SaveOutcome, { status: 'not_found' }>>;
  function save(businessId: string, input: SurveyConfigInput, id: string): Promise<SaveOutcome>;
  async function save(businessId: string, input: SurveyConfigInput, id?: string): Promise<SaveOutcome> {
    const row = id === undefined ? null : await owned(businessId, id);
    if (id !== undefined && !row) return { status: 'not_found' };
    const stored = row
      ? { hostedVision: row.hostedVision, customQuestions: row.customQuestions, reviewPolicy: reviewPolicyOf(row), tierThresholds: row.tierThresholds ?? null, languages: row.languages }
      : null;
    const refusal = saveRefusal(rules, input, stored);
    if (refusal) return { status: 'refused', refusal };
    if (row) {
      em.assign(row, given(input));
      await em.flush();
      return { status: 'saved', survey: toSurveyView(row), created: false };
    }
    const created = await insertWithShortCode({
      businessId,
      ...input,
      customQuestions: input.customQuestions ?? [],
      reviewPolicy: input.reviewPolicy ?? DEFAULT_REVIEW_POLICY,
      tierThresholds: input.tierThresholds ?? null,
      languages: input.languages ?? ['en'],
      translations: input.translations ?? {},
      isActive: true,
    });
    return { status: 'saved', survey: toSurveyView(created), created: true };
  }

  return {
    /** Whether the survey is this owner's (archived too); billing asks it through the composition root. */
    owns: async (businessId: string, id: string): Promise<boolean> => (await owned(businessId, id)) !== null,

    countForBusiness(businessId: string): Promise<number> {
      return em.count(SurveyConfig, { businessId, archivedAt: null });
    },

    /** The owner's surveys, newest first; archived ones only when asked (management's Archived list, analytics). */
    async list(businessId: string, options: { archived?: 'exclude' | 'only' | 'include' } = {}): Promise<SurveyConfigView[]> {
      const archived = options.archived ?? 'exclude';
      const where = archived === 'include' ? { businessId } : archived === 'only' ? { businessId, archivedAt: { $ne: null } } : { businessId, archivedAt: null };
      const rows = await em.find(SurveyConfig, where, { orderBy: { createdAt: 'desc', id: 'asc' } });
      return rows.map(toSurveyView);
    },

    /**
     * What the short link `/s/{code}` leads to: the survey's public path, whatever its state (that
     * path decides what a customer sees, as for its long link). Null for a code no survey has, or
     * text that cannot be a code (no lookup then). Not owner-scoped: the code is printed on purpose.
     */
    async shortLink(code: string): Promise<ShortLinkTarget | null> {
      const shortCode = parseShortCode(code);
      if (!shortCode) return null;
      const row = await em.findOne(SurveyConfig, { shortCode }, { fields: ['id', 'businessId'], disableIdentityMap: true });
      return row ? { businessId: row.businessId, surveyId: row.id } : null;
    },

    async get(businessId: string, id: string): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      return row ? toSurveyView(row) : null;
    },

    /** The most recently created survey, for pages that show "your survey" without an id. */
    async latest(businessId: string): Promise<SurveyConfigView | null> {
      const row = await em.findOne(SurveyConfig, { businessId, archivedAt: null }, { orderBy: { createdAt: 'desc' } });
      return row ? toSurveyView(row) : null;
    },

    save,

    /** Switches a survey on or off; null when it is not this owner's or is archived (restore it first). */
    async setActive(businessId: string, id: string, isActive: boolean): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      if (!row || row.archivedAt) return null;
      row.isActive = isActive;
      await em.flush();
      return toSurveyView(row);
    },

    /**
     * Archives a survey: switched off, out of the lists, its public links answer 'Survey Not Found';
     * its responses and gift cards stay (analytics, Gift Cards). Restoring brings it back switched off.
     */
    async archive(businessId: string, id: string): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      if (!row) return null;
      row.archivedAt ??= now();
      row.isActive = false;
      await em.flush();
      return toSurveyView(row);
    },

    async restore(businessId: string, id: string): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      if (!row) return null;
      row.archivedAt = null;
      await em.flush();
      return toSurveyView(row);
    },

    /** A new draft with the same settings, titled 'Copy of …'; never published, switched on, with no responses. */
    async duplicate(businessId: string, id: string): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      if (!row) return null;
      const copy = await insertWithShortCode({
        businessId,
        surveyTemplateId: row.surveyTemplateId,
        title: `Copy of ${row.title}`.slice(0, 255),
        isActive: true,
        rewardMode: row.rewardMode,
        bronzeRewardValue: row.bronzeRewardValue,
        silverRewardValue: row.silverRewardValue,
        goldRewardValue: row.goldRewardValue,
        customQuestions: structuredClone(row.customQuestions),
        reviewUrls: { ...row.reviewUrls },
        socialHandles: { ...row.socialHandles },
        selectedReviewPlatforms: [...row.selectedReviewPlatforms],
        selectedSocialPlatforms: [...row.selectedSocialPlatforms],
        surveyFrequencyDays: row.surveyFrequencyDays,
        verifyCustomerEmail: row.verifyCustomerEmail,
        hostedVision: row.hostedVision,
        languages: surveyLocales(row.languages),
        translations: structuredClone(row.translations ?? {}),
        redemptionWebsite: row.redemptionWebsite ?? null,
        tierThresholds: row.tierThresholds ? { ...row.tierThresholds } : null,
        reviewPolicy: reviewPolicyOf(row),
      });
      return toSurveyView(copy);
    },

    /** Marks the survey live: published (first time only) and active. */
    async publish(businessId: string, id: string): Promise<SurveyConfigView | null> {
      const row = await owned(businessId, id);
      if (!row || row.archivedAt) return null;
      row.publishedAt ??= now();
      row.isActive = true;
      await em.flush();
      return toSurveyView(row);
    },
  };
}

export type Surveys = ReturnType<typeof createSurveys>;
