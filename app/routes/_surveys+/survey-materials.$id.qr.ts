import type { LoaderFunctionArgs } from '@remix-run/node';
import { flyerFileName, qrPng } from '../../../modules/sharing/server.ts';
import { shortSurveyUrl } from '../../../modules/sharing/index.ts';
import { requireOwner } from '#app/utils/auth.server.ts';

/** GET /survey-materials/{id}/qr: the survey's short link (`/s/{code}`, ADR 082) as a 400x400 QR code PNG. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  const png = qrPng(shortSurveyUrl(context.config.appUrl, survey.shortCode), 400);
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename="${flyerFileName(survey.title).replace(/-flyer\.png$/, '-qr.png')}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
