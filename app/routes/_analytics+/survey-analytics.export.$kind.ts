import type { LoaderFunctionArgs } from '@remix-run/node';
import { parseAnalyticsQuery } from '../../../modules/analytics/index.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { notFound } from '#app/utils/analytics.server.ts';

const KINDS = { responses: 'responses', giftcards: 'gift-cards' } as const;

/**
 * GET /survey-analytics/export/responses and /survey-analytics/export/giftcards: the owner's responses
 * (one column per question, labelled) or gift cards as CSV, streamed in batches; `survey`, `from`,
 * `to` and (responses) `q` and `language` as on the page, so "Export CSV" exports what the page shows. Another
 * owner's survey is a 404, a bad date a 400 with the message.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const kind = params.kind ?? '';
  if (!Object.hasOwn(KINDS, kind)) throw new Response('Not found.', { status: 404 });
  const search = new URL(request.url).searchParams;
  const surveyId = (search.get('survey') ?? '').trim();
  const survey = surveyId && surveyId !== 'all' ? await context.analytics.survey(owner.id, surveyId) : null;
  if (surveyId && surveyId !== 'all' && !survey) throw notFound();
  const parsed = parseAnalyticsQuery(search);
  if (!parsed.ok) return new Response(parsed.message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const scope = { surveyId: survey?.id ?? null, ...parsed.window };
  const rows =
    kind === 'responses'
      ? context.analytics.exportResponses(owner.id, scope, { search: parsed.query.q, language: parsed.query.language })
      : context.analytics.exportGiftCards(owner.id, scope);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await rows.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        context.logger.error({ err: error }, 'analytics export failed');
        controller.error(error);
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const name = `${KINDS[kind as keyof typeof KINDS]}-${survey ? survey.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'survey' : 'all-surveys'}-${new Date().toISOString().slice(0, 10)}.csv`;
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
