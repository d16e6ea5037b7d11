// Part 3 of the survey, by the rating and the review policy (ADR 040): 'Help Us Improve', the hosted
// vision disclosure, and the review, follow and tag screenshot blocks.
import { blockKey, type BlockState, type CustomerSurveyView } from '../../modules/responses/index.ts';
import {
  displayHandle,
  HOSTED_VISION_DISCLOSURE,
  isBlock,
  PART3_PENDING_MESSAGE,
  PLATFORM_LABELS,
  profileUrl,
  reviewUrl,
  VERIFICATION_KIND_BY_TYPE,
  type Block,
  type Question,
  type VerificationKind,
} from '../../modules/surveys/index.ts';
import { useI18n } from '../components/i18n.tsx';
import { BlockFields, QuestionInput, type FieldApi, type UploadApi } from './questions.tsx';

export function Part3({
  view,
  rating,
  questions,
  api,
  uploads,
  states,
}: {
  view: CustomerSurveyView;
  rating: number | undefined;
  questions: readonly Question[];
  api: FieldApi;
  uploads: UploadApi;
  states: Record<string, BlockState>;
}) {
  const { t } = useI18n();
  // Rating-routed, part 3 waits for the rating; "Ask every customer" offers everything whatever it is (ADR 040).
  if (rating === undefined && view.reviewPolicy === 'rating_routed') {
    return <p className="rounded-card border border-dashed border-slate-300 bg-white p-4 text-slate-700">{t(PART3_PENDING_MESSAGE)}</p>;
  }
  const of = (kind: VerificationKind) => questions.filter(isBlock).filter((q) => VERIFICATION_KIND_BY_TYPE[q.type] === kind);
  const block = (q: Block) => {
    const platform = q.platform;
    const label = PLATFORM_LABELS[platform];
    const isReview = VERIFICATION_KIND_BY_TYPE[q.type] === 'review';
    const link = isReview ? reviewUrl(view.reviewUrls, platform) : profileUrl(platform, view.socialHandles[platform]);
    const handle = displayHandle(view.socialHandles[platform]);
    return (
      <BlockFields
        key={q.id}
        q={q}
        api={api}
        uploads={uploads}
        state={states[blockKey(q)]}
        link={link}
        linkLabel={isReview ? t('Write a review on {{platform}}', { platform: label }) : t('Open {{name}} on {{platform}}', { name: handle ?? view.businessName, platform: label })}
        missingLink={t(isReview ? 'Review URL not configured' : 'Social handle not configured')}
      />
    );
  };
  const group = (title: string, qs: Block[]) =>
    qs.length ? (
      <div className="space-y-3">
        <h3 className="text-lg font-bold">{title}</h3>
        {qs.map(block)}
      </div>
    ) : null;
  const improvement = questions.find((q) => q.id === 'five_star_improvement');
  return (
    <>
      {/* What the branch holds decides the groups: the review policy and the rating chose it (visibleSections). */}
      {improvement ? (
        <div className="space-y-3">
          <h3 className="text-lg font-bold">{t('Help Us Improve')}</h3>
          <QuestionInput q={{ ...improvement, description: undefined }} api={api} />
        </div>
      ) : null}
      {view.hostedVision && questions.some(isBlock) ? (
        <p className="rounded-card border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" data-testid="vision-disclosure">
          {t(HOSTED_VISION_DISCLOSURE)}
        </p>
      ) : null}
      {group(t('Share Your Review'), of('review'))}
      {group(t('Follow Us on Social Media'), of('follow'))}
      {group(t('Tag us'), of('tag'))}
      {!questions.length ? <p className="text-slate-700">{t('Nothing more to add: claim your reward below.')}</p> : null}
    </>
  );
}
