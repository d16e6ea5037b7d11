import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useActionData,
  useLoaderData,
  useRouteError,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from '@remix-run/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { BUILDER_DRAFT_KEY } from '../modules/surveys/index.ts';
import { Toast, type ToastData } from './components/toast.tsx';
import { useNonce, useSurveyStyle } from './nonce.tsx';
import stylesheet from './tailwind.css?url';
import { getOwner } from './utils/auth.server.ts';
import { readToast } from './utils/toast.server.ts';

// The stylesheet is linked by Layout: survey pages in production carry their own inside the HTML.
export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [
  { title: 'RewardLoop — customer surveys and automated gift card rewards' },
  { name: 'description', content: 'Customer surveys with automated gift card rewards for cafes, bakeries and restaurants.' },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [owner, { toast, headers }] = await Promise.all([getOwner(request, context), readToast(request, context)]);
  return data(
    { owner: owner ? { displayName: owner.displayName } : null, toast, surveyIsland: context.surveyIsland, surveyIslandTranslator: context.surveyIslandTranslator },
    { headers: headers ?? undefined },
  );
}

/** The owner's sections (issue 15): every owner page shows them, with the current one marked. */
const OWNER_SECTIONS = [
  { to: '/', label: 'Dashboard', matches: ['/', '/dashboard', '/square-connect', '/square-location-selection'] },
  { to: '/survey-management', label: 'Surveys', matches: ['/survey-management', '/survey-builder', '/survey-preview', '/survey-published', '/subscription-check'] },
  { to: '/survey-analytics', label: 'Analytics', matches: ['/survey-analytics'] },
  { to: '/rewards', label: 'Gift Cards', matches: ['/rewards'] },
] as const;

function isCurrent(pathname: string, matches: readonly string[]): boolean {
  return matches.some((m) => (m === '/' ? pathname === '/' : pathname === m || pathname.startsWith(`${m}/`)));
}

const navLinkClass = (current: boolean) =>
  `inline-flex min-h-11 items-center rounded-lg px-3 font-medium ${current ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`;

function OwnerSections() {
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  // With JavaScript, a client-side navigation closes the phone menu (without it, every page is new).
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  const links = OWNER_SECTIONS.map((s) => {
    const current = isCurrent(pathname, s.matches);
    return (
      <li key={s.to}>
        <Link to={s.to} aria-current={current ? 'page' : undefined} className={`${navLinkClass(current)} w-full md:w-auto`}>
          {s.label}
        </Link>
      </li>
    );
  });
  return (
    <>
      <ul className="hidden items-center gap-1 md:flex">{links}</ul>
      <details ref={menu} className="relative md:hidden">
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg border border-slate-300 px-3 font-medium text-slate-800 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
          <span aria-hidden>☰</span> Menu
        </summary>
        <ul className="absolute left-0 z-40 mt-2 w-56 space-y-1 rounded-card border border-slate-200 bg-white p-2 shadow-lg">{links}</ul>
      </details>
    </>
  );
}

function TopBar() {
  const root = useRouteLoaderData<typeof loader>('root');
  const owner = root?.owner;
  const { pathname } = useLocation();
  const onProfile = isCurrent(pathname, ['/profile', '/subscription-details', '/brand']);
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex min-h-14 max-w-6xl items-center justify-between gap-2 px-4">
        <Link to="/" className="shrink-0 text-lg font-bold tracking-tight text-brand-700">
          RewardLoop
        </Link>
        <nav aria-label={owner ? 'Main' : 'Account'} className="flex min-w-0 items-center gap-2">
          {owner ? (
            <>
              <OwnerSections />
              <Link
                to="/profile"
                aria-current={onProfile ? 'page' : undefined}
                className={`inline-flex min-h-11 min-w-0 items-center gap-2 rounded-lg px-2 font-medium ${onProfile ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100'}`}
              >
                <span aria-hidden className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-100 text-sm font-bold text-brand-800">
                  {owner.displayName.slice(0, 1).toUpperCase()}
                </span>
                <span className="sr-only">Profile: </span>
                <span className="min-w-0 max-w-28 truncate sm:max-w-48">{owner.displayName}</span>
              </Link>
            </>
          ) : (
            <>
              <Link to="/auth" className="inline-flex min-h-11 items-center rounded-lg px-3 font-medium text-slate-800 hover:bg-slate-100">
                Sign In
              </Link>
              <Link
                to="/auth?mode=signup"
                className="inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-3 font-semibold text-white hover:bg-brand-700"
              >
                Sign Up
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Customer survey pages hydrate from their own small bundle in production, without the Remix runtime.
  const rootData = useRouteLoaderData<typeof loader>('root');
  const island = rootData?.surveyIsland;
  const surveyStyle = useSurveyStyle();
  const matches = useMatches();
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  // The survey page and the reward-confirm page are in the customer's language (ADR 084, 090); every other page is English.
  const customer = bare || matches.some((m) => (m.handle as { customerLocale?: boolean } | undefined)?.customerLocale);
  const lang = customer ? ((matches.at(-1)?.data as { locale?: string } | undefined)?.locale ?? 'en') : 'en';
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* A phone paints the survey without waiting for a second request (issue 29, ADR 092). */}
        {bare && island && surveyStyle ? <style dangerouslySetInnerHTML={{ __html: surveyStyle }} /> : <link rel="stylesheet" href={stylesheet} />}
        <Links />
        {bare && island && lang !== 'en' && rootData?.surveyIslandTranslator ? <link rel="modulepreload" href={rootData.surveyIslandTranslator} nonce={nonce} /> : null}
      </head>
      <body className="min-h-screen">
        {children}
        {bare && island ? (
          <script type="module" src={island} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  const location = useLocation();
  // A survey drafted while logged out was saved to the account at sign-in: forget the browser's copy.
  useEffect(() => {
    if (new URLSearchParams(location.search).get('handover') === '1') localStorage.removeItem(BUILDER_DRAFT_KEY);
  }, [location.search]);
  // An action may answer with a toast of its own (e.g. 'Sign in failed').
  const actionData = useActionData<{ toast?: ToastData }>();
  // The customer's survey pages (and the customer's reward-confirm page, ADR 090) belong to the business: no RewardLoop account bar there.
  const bare = useMatches().some((m) => {
    const handle = m.handle as { bare?: boolean; customerLocale?: boolean } | undefined;
    return handle?.bare || handle?.customerLocale;
  });
  return (
    <>
      {bare ? null : <TopBar />}
      <Outlet />
      <Toast toast={actionData?.toast ?? toast} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <>
      <TopBar />
      <main className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{notFound ? '404 Page Not Found' : 'Something went wrong'}</h1>
        <p className="mt-3 text-slate-600">
          {notFound
            ? 'The page you were looking for does not exist or has moved.'
            : isRouteErrorResponse(error)
              ? `${error.status}: ${typeof error.data === 'string' ? error.data : typeof error.data?.message === 'string' ? error.data.message : error.statusText}`
              : 'An unexpected error occurred. Please try again in a moment.'}
        </p>
        <Link to="/" className="mt-6 inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-4 font-semibold text-white">
          Go to the dashboard
        </Link>
      </main>
    </>
  );
}
