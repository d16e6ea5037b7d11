import type { LoaderFunctionArgs } from '@remix-run/node';
import { flyerFileName, qrPng } from '../../modules/sharing/server.ts';
import { publicSurveyUrl } from '../../modules/sharing/index.ts';
import { requireOwner } from '../utils/auth.server.ts';

/** GET /survey-materials/{id}/qr: the survey link's QR code as a 400x400 PNG. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  const png = qrPng(publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id), 400);
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename="${flyerFileName(survey.title).replace(/-flyer\.png$/, '-qr.png')}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
