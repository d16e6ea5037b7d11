import type { LoaderFunctionArgs } from '@remix-run/node';
import { giftCardsApi } from '#app/utils/responses-api.server.ts';

/**
 * GET /api/gift-card-issuances (spec section 7): the signed-in owner's gift cards in the spec's client
 * shape, newest first, 100 at a time (`?limit=` up to 500), the next page in the `Link` header.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return giftCardsApi(request, context);
}
