import { Link } from '@remix-run/react';

export function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-3 text-slate-600">The page you were looking for does not exist or has moved.</p>
      <Link to="/" className="mt-6 inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-4 font-semibold text-white">
        Go to the dashboard
      </Link>
    </main>
  );
}
