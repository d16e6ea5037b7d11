import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AuthScreen } from '#app/components/auth-forms.tsx';
import { Dashboard } from '#app/components/dashboard.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { dashboardData } from '#app/utils/dashboard.server.ts';

export const meta: MetaFunction = () => [{ title: 'Dashboard — RewardLoop' }];

// Logged out, /dashboard shows the sign-in screen in place and comes back here after.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  return {
    dashboard: owner ? await dashboardData(owner, context) : null,
    googleEnabled: Boolean(context.config.googleClientId),
  };
}

export default function DashboardRoute() {
  const { dashboard, googleEnabled } = useLoaderData<typeof loader>();
  return dashboard ? (
    <Dashboard d={dashboard} />
  ) : (
    <AuthScreen mode="signin" returnTo="/dashboard" googleEnabled={googleEnabled} />
  );
}
