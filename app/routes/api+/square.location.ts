import type { ActionFunctionArgs } from '@remix-run/node';
import { apiError, methodNotAllowed, readJsonObject } from '#app/utils/api.server.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';
import { isFormPost } from '#app/utils/square.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/square/location, body {locationId, locationName}: chooses the location gift cards are
 * issued at. The id must be an active location of the owner's own merchant (the name is taken from
 * Square's list, not from the body). JSON in, JSON out; a browser form post is answered with a
 * redirect and a toast instead.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  if (isFormPost(request)) {
    const owner = await requireOwner(request, context);
    const result = await context.pos.setLocation(owner, { locationId: (await readForm(request)).get('locationId') });
    if (!result.ok) {
      return redirectWithToast(context, '/square-location-selection', { title: 'Failed to Set Location', description: result.message, type: 'error' });
    }
    return redirectWithToast(context, '/', { title: 'Location Set Successfully', description: `Gift cards are now issued from ${result.location.name}.`, type: 'success' });
  }
  const owner = await requireOwnerApi(request, context);
  if (!/^application\/json\b/i.test(request.headers.get('Content-Type') ?? '')) {
    return apiError(415, 'Send a JSON body with Content-Type: application/json.');
  }
  const body = await readJsonObject(request);
  const result = await context.pos.setLocation(owner, { locationId: body.locationId });
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json({
    message: 'Location Set Successfully',
    locationId: result.location.id,
    locationName: result.location.name,
  });
}
