import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { joinedAddress, posStatus } from '../../../modules/pos/index.ts';
import { buttonClass, Card, useHydrated } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { chosenLocationId } from '#app/utils/square.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Select Your Square Location — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  if (!posStatus(owner).isConnected) {
    throw await redirectWithToast(context, '/square-connect', {
      title: 'Connect Square first',
      description: 'Connect your Square account, then choose the location gift cards are issued from.',
      type: 'info',
    });
  }
  const result = await context.pos.locations(owner);
  if (!result.ok) {
    return { locations: [], hidden: 0, currentLocationId: owner.squareLocationId ?? null, currentLocationName: owner.squareLocationName ?? null, error: result.message, reconnect: result.status === 409 };
  }
  const active = result.locations.filter((l) => l.status === 'ACTIVE');
  return {
    locations: active,
    hidden: result.locations.length - active.length,
    currentLocationId: result.currentLocationId,
    currentLocationName: result.currentLocationName,
    error: null,
    reconnect: false,
  };
}

/** The page's own form (radio cards and the dropdown), with or without JavaScript. */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const choice = chosenLocationId((await readForm(request)).getAll('locationId'), owner.squareLocationId ?? null);
  const result = choice.ok ? await context.pos.setLocation(owner, { locationId: choice.id }) : ({ ok: false, status: 400, message: choice.message } as const);
  if (!result.ok) {
    return data({ error: result.message, toast: { title: 'Failed to Set Location', description: result.message, type: 'error' as const } }, { status: result.status });
  }
  return redirectWithToast(context, '/', { title: 'Location Set Successfully', description: `Gift cards are now issued from ${result.location.name}.`, type: 'success' });
}

function InfoBox() {
  return (
    <div role="note" className="flex gap-3 rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-900">
      <span aria-hidden className="font-bold">i</span>
      <p>
        <span className="font-semibold">Gift cards are tied to the location you choose.</span> Every reward card is created at this location in your
        Square account. You can change it at any time.
      </p>
    </div>
  );
}

/** Spec section 2, location selection: cards, a dropdown, Current badge, Confirm and Cancel, the empty state, the info box. */
export default function SquareLocationSelection() {
  const { locations, hidden, currentLocationId, error, reconnect } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const saving = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const initial = locations.some((l) => l.id === currentLocationId) ? currentLocationId! : '';
  const [selected, setSelected] = useState(initial);
  const message = failed?.error ?? null;

  if (error) {
    return (
      <main className="mx-auto max-w-2xl space-y-6 px-4 py-10">
        <h1 className="text-2xl font-bold">Select Your Square Location</h1>
        <Card className="space-y-4">
          <p role="alert" className="text-red-800">
            {error}
          </p>
          <div className="flex flex-wrap gap-3">
            {reconnect ? (
              <a href="/api/square/auth" className={buttonClass.primary}>
                Connect Square again
              </a>
            ) : (
              <a href="/square-location-selection" className={buttonClass.primary}>
                Try again
              </a>
            )}
            <Link to="/" className={buttonClass.secondary}>
              Return to Dashboard
            </Link>
          </div>
        </Card>
      </main>
    );
  }

  if (locations.length === 0) {
    return (
      <main className="mx-auto max-w-2xl space-y-6 px-4 py-10">
        <Card className="space-y-4 text-center">
          <h1 className="text-2xl font-bold">No Active Locations Found</h1>
          <p className="text-slate-600">
            Your Square account has no active locations{hidden ? ` (${hidden} inactive)` : ''}. Add or reactivate a location in Square, then come back to
            choose it.
          </p>
          <Link to="/" className={buttonClass.primary}>
            Return to Dashboard
          </Link>
        </Card>
        <InfoBox />
      </main>
    );
  }

  return (
    <main className="mx-auto max-w-2xl space-y-6 px-4 py-10">
      <div>
        <h1 className="text-2xl font-bold">Select Your Square Location</h1>
        <p className="mt-1 text-slate-600">Choose the location your customers' gift cards are issued from.</p>
      </div>
      <InfoBox />
      <Form method="post" className="space-y-5" aria-describedby={message ? 'location-error' : undefined}>
        <fieldset className="space-y-3">
          <legend className="mb-2 font-semibold">Your locations</legend>
          {locations.map((l) => {
            const address = joinedAddress(l.address);
            const isCurrent = l.id === currentLocationId;
            return (
              <label
                key={l.id}
                data-testid="location-card"
                className="flex cursor-pointer gap-3 rounded-card border border-slate-200 bg-white p-4 shadow-sm has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-600"
              >
                <input
                  type="radio"
                  name="locationId"
                  value={l.id}
                  className="mt-1 size-5 shrink-0 accent-brand-600"
                  checked={selected === l.id}
                  onChange={() => setSelected(l.id)}
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">{l.name}</span>
                    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">{l.status}</span>
                    {isCurrent ? <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">Current</span> : null}
                  </span>
                  {l.business_name ? <span className="block text-sm text-slate-700">{l.business_name}</span> : null}
                  {address ? <span className="block text-sm text-slate-600">{address}</span> : null}
                </span>
              </label>
            );
          })}
          {hidden ? <p className="text-sm text-slate-600">{hidden} inactive location{hidden === 1 ? ' is' : 's are'} not shown.</p> : null}
        </fieldset>

        <div>
          <label htmlFor="location-select" className="mb-1 block text-sm font-medium text-slate-800">
            Or choose from the list
          </label>
          <select
            id="location-select"
            name="locationId"
            className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
            value={selected}
            onChange={(e) => setSelected(e.target.value)}
          >
            <option value="">Choose a location…</option>
            {locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
                {l.id === currentLocationId ? ' (current)' : ''}
              </option>
            ))}
          </select>
        </div>

        {message ? (
          <p id="location-error" role="alert" className="text-sm text-red-700">
            {message}
          </p>
        ) : null}

        <div className="flex flex-wrap gap-3">
          <button type="submit" className={buttonClass.primary} disabled={hydrated && (!selected || saving)}>
            {saving ? 'Saving…' : 'Confirm Location'}
          </button>
          <Link to="/" className={buttonClass.secondary}>
            Cancel
          </Link>
        </div>
      </Form>
    </main>
  );
}
