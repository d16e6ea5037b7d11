import { useEffect, useRef, useState } from 'react';
import { useNonce } from '../nonce.tsx';
import { buttonClass } from './ui.tsx';

type StripeElements = { create(type: 'payment'): { mount(el: HTMLElement): void; destroy(): void } };
type StripeJs = {
  elements(options: { clientSecret: string }): StripeElements;
  confirmSetup(options: {
    elements: StripeElements;
    confirmParams: { return_url: string };
    redirect: 'if_required';
  }): Promise<{ error?: { message?: string }; setupIntent?: { id: string; status: string } }>;
};
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

const STRIPE_JS = 'https://js.stripe.com/v3/';

/**
 * The card form with BILLING=stripe: Stripe.js (loaded from js.stripe.com, as Stripe requires; the
 * CSP allows it on this page only) mounts the Payment Element for the SetupIntent; on submit
 * `confirmSetup` (redirect only if the bank requires it, back to this page), then
 * POST /api/subscription-complete and on to where the server says.
 */
export function StripePaymentForm(props: { publishableKey: string; clientSecret: string; setupIntentId: string; returnUrl: string; submitLabel: string }) {
  const nonce = useNonce();
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ js: StripeJs; elements: StripeElements } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let element: { destroy(): void } | null = null;
    const start = () => {
      if (!window.Stripe || !mountRef.current) return;
      const js = window.Stripe(props.publishableKey);
      const elements = js.elements({ clientSecret: props.clientSecret });
      const payment = elements.create('payment');
      payment.mount(mountRef.current);
      element = payment;
      setStripe({ js, elements });
    };
    if (window.Stripe) start();
    else {
      const script = document.createElement('script');
      script.src = STRIPE_JS;
      script.nonce = nonce;
      script.onload = start;
      script.onerror = () => setError('The secure card form could not be loaded. Please check your connection and reload the page.');
      document.head.appendChild(script);
    }
    return () => element?.destroy();
  }, [props.publishableKey, props.clientSecret, nonce]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!stripe) return;
    setBusy(true);
    setError(null);
    const result = await stripe.js.confirmSetup({ elements: stripe.elements, confirmParams: { return_url: props.returnUrl }, redirect: 'if_required' });
    if (result.error) {
      setError(result.error.message ?? 'Payment setup was not completed successfully.');
      setBusy(false);
      return;
    }
    const status = result.setupIntent?.status;
    if (status !== 'succeeded' && status !== 'requires_action') {
      setError('Payment setup was not completed successfully.');
      setBusy(false);
      return;
    }
    const response = await fetch('/api/subscription-complete', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ setupIntentId: props.setupIntentId }),
    });
    const body = (await response.json().catch(() => ({}))) as { redirectTo?: string; message?: string };
    if (!response.ok || !body.redirectTo) {
      setError(body.message ?? 'Failed to complete subscription setup.');
      setBusy(false);
      return;
    }
    window.location.assign(body.redirectTo);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      {error ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          <p className="font-semibold">Setup Failed</p>
          <p className="text-sm">{error}</p>
        </div>
      ) : null}
      <div ref={mountRef} className="min-h-40" aria-busy={!stripe} />
      <noscript>
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">The secure card form from Stripe needs JavaScript. Please turn it on to add your card.</p>
      </noscript>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={!stripe || busy}>
        {busy ? 'Confirming…' : props.submitLabel}
      </button>
    </form>
  );
}
