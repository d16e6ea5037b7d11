import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwner } from '#app/utils/auth.server.ts';

/**
 * GET /survey-analytics/screenshots/{verificationId}: a screenshot a customer uploaded (the re-encoded
 * image, no metadata), for the owner whose survey it was sent to only; anyone else gets a 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const image = await context.analytics.screenshot(owner.id, params.verificationId ?? '');
  if (!image) throw new Response('Screenshot not found.', { status: 404 });
  return new Response(new Uint8Array(image.data), {
    headers: { 'Content-Type': image.contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}
