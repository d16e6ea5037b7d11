import { Link } from '@remix-run/react';
import { buttonClass } from './ui.tsx';

/** The public front page for visitors who are not signed in. */
export function Landing() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-12 sm:py-20">
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Customer surveys and automated gift card rewards</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
          For cafes, bakeries and restaurants. Customers scan a QR code, answer a short survey, share a review and get a gift card by
          email. You get feedback, reviews and return visits.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/auth?mode=signup" className={buttonClass.primary}>
            Sign Up
          </Link>
          <Link to="/auth" className={buttonClass.secondary}>
            Sign In
          </Link>
        </div>
      </div>
      <div className="mt-14 grid gap-4 sm:grid-cols-3">
        {[
          ['10+', 'new customers can come from one positive review.'],
          ['300%', 'more reviews when customers are rewarded for sharing.'],
          ['Bronze · Silver · Gold', 'reward tiers you set, paid as gift cards.'],
        ].map(([big, text]) => (
          <div key={big} className="rounded-card border border-slate-200 bg-white p-5 text-center shadow-sm">
            <p className="text-2xl font-bold text-brand-700">{big}</p>
            <p className="mt-1 text-slate-700">{text}</p>
          </div>
        ))}
      </div>
    </main>
  );
}
