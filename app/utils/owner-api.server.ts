import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/server.ts';
import { apiError } from './api.server.ts';
import { getOwner } from './auth.server.ts';

/** For owner JSON endpoints: the signed-in owner, or a thrown 401 (spec: a 401 means signed out). */
export async function requireOwnerApi(request: Request, context: AppLoadContext): Promise<Business> {
  const owner = await getOwner(request, context);
  if (!owner) throw apiError(401, 'Not signed in.');
  return owner;
}

export const surveyNotFound = () => apiError(404, "Survey not found or you don't have access to it.");
