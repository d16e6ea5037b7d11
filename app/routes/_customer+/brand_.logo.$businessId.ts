import type { LoaderFunctionArgs } from '@remix-run/node';
import { isUuid } from '../../../modules/shared/index.ts';


/**
 * GET /brand/logo/{businessId}: the business's logo, public (it is on the business's public survey
 * and in its emails). The address carries a version (`?v=`), so it may be cached for a day.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const businessId = params.businessId ?? '';
  const logo = isUuid(businessId) ? await context.branding.logo(businessId) : null;
  if (!logo) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(new Uint8Array(logo.data), {
    headers: {
      'Content-Type': logo.contentType,
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
    },
  });
}
