import type { LoaderFunctionArgs } from '@remix-run/node';
import { maxPoints, reachableTiers, tierThresholds } from '../../../modules/scoring/index.ts';
import { shortSurveyUrl } from '../../../modules/sharing/index.ts';
import { effectiveTemplate } from '../../../modules/surveys/index.ts';
import { flyerFileName, renderFlyer } from '../../../modules/sharing/server.ts';
import { requireOwner } from '#app/utils/auth.server.ts';

/** GET /survey-materials/{id}/flyer: the printable 2550x3300 PNG flyer, named after the survey; its QR code and printed link are the short link (ADR 082). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  const logo = await context.branding.logo(owner.id);
  // The headline promises the top tier the survey's own questions can reach.
  const template = effectiveTemplate(survey);
  const reach = reachableTiers(tierThresholds(template), maxPoints(template, survey)).filter((t) => t.reachable);
  const top = reach.at(-1)?.tier;
  const png = await renderFlyer({
    businessName: owner.displayName,
    surveyTitle: survey.title,
    url: shortSurveyUrl(context.config.appUrl, survey.shortCode),
    rewards: { bronze: survey.bronzeRewardValue, silver: survey.silverRewardValue, gold: survey.goldRewardValue },
    topTier: top === 'Bronze' ? 'bronze' : top === 'Silver' ? 'silver' : 'gold',
    brandColor: owner.brandColor ?? null,
    logo: logo?.data ?? null,
  });
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename="${flyerFileName(survey.title)}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
