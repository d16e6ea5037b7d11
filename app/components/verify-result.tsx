import { Link } from '@remix-run/react';
import { buttonClass, Card } from './ui.tsx';

export const VERIFY_SUCCESS = 'Your email has been verified. Thank you!';
export const VERIFY_FAILURE = 'There was an error verifying your email. The link may have expired or been used already.';

export function VerifyResult({ ok }: { ok: boolean }) {
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        <h1 className="text-2xl font-bold">{ok ? 'Email verified' : 'Verification failed'}</h1>
        <p className="mt-2 text-slate-600" role={ok ? 'status' : 'alert'}>
          {ok ? VERIFY_SUCCESS : VERIFY_FAILURE}
        </p>
        <Link to="/" className={`${buttonClass.primary} mt-6`}>
          Return to Dashboard
        </Link>
      </Card>
    </main>
  );
}
