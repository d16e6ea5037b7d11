import { Link } from '@remix-run/react';
import { buttonClass, Card } from './ui.tsx';

export const VERIFY_SUCCESS = 'Your email has been verified. Thank you!';
export const VERIFY_FAILURE = 'There was an error verifying your email. The link may have expired or been used already.';

/** The HTML page's words for a link that no longer works (the JSON API keeps VERIFY_FAILURE): no "error" (issue 27 item 14). */
export const VERIFY_LINK_USED = 'This confirmation link has expired or was used already. Sign in and send yourself a new one from the dashboard.';
export const VERIFY_ALREADY = 'Your email address is already confirmed. Nothing more to do.';

/** `already`: the signed-in owner's address is confirmed, so a used link is no failure at all. */
export function VerifyResult({ ok, already = false }: { ok: boolean; already?: boolean }) {
  const fine = ok || already;
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        <h1 className="text-2xl font-bold">{ok ? 'Email verified' : already ? 'Email already confirmed' : 'Link no longer valid'}</h1>
        <p className="mt-2 text-slate-600" role={fine ? 'status' : 'alert'}>
          {ok ? VERIFY_SUCCESS : already ? VERIFY_ALREADY : VERIFY_LINK_USED}
        </p>
        <Link to="/" className={`${buttonClass.primary} mt-6`}>
          Return to Dashboard
        </Link>
      </Card>
    </main>
  );
}
