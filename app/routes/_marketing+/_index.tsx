import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Dashboard } from '#app/components/dashboard.tsx';
import { Landing } from '#app/components/landing.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { dashboardData } from '#app/utils/dashboard.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  return { dashboard: owner ? await dashboardData(owner, context) : null };
}

export default function Index() {
  const { dashboard } = useLoaderData<typeof loader>();
  return dashboard ? <Dashboard d={dashboard} /> : <Landing />;
}
