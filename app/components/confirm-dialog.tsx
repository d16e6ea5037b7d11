import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { buttonClass } from './ui.tsx';

/**
 * The confirm step before a decision that cannot be taken back (issue 27 item 13): Release, Reject,
 * Archive. It is a page state reached by a link (`?confirm=…`), so it works without JavaScript: the
 * dialog holds the one form that posts the decision with `confirmed=yes`, and Cancel is a link back.
 * With JavaScript the same link opens it without a reload, and Escape cancels.
 */
export function ConfirmDialog({
  id,
  title,
  children,
  cancelTo,
  cancelLabel = 'Cancel',
  fields,
  intent,
  confirmLabel,
  busyLabel,
  danger = false,
}: {
  id: string;
  title: string;
  children: ReactNode;
  cancelTo: string;
  cancelLabel?: string;
  fields: Record<string, string>;
  intent: string;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
}) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') navigate(cancelTo, { preventScrollReset: true });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, cancelTo]);
  return (
    <div className="fixed inset-0 z-40 grid place-items-center bg-slate-900/50 p-4">
      <section
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        data-testid="confirm-dialog"
        className="w-full max-w-md rounded-card bg-white p-6 shadow-xl"
      >
        <h2 id={`${id}-title`} className="text-xl font-bold">
          {title}
        </h2>
        <div id={`${id}-text`} className="mt-2 space-y-2 text-slate-700">
          {children}
        </div>
        <div className="mt-5 flex flex-wrap justify-end gap-3">
          <Link to={cancelTo} preventScrollReset className={buttonClass.secondary} autoFocus>
            {cancelLabel}
          </Link>
          <Form method="post" preventScrollReset>
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" name="intent" value={intent} className={danger ? buttonClass.danger : buttonClass.primary} disabled={busy}>
              {busy ? busyLabel : confirmLabel}
            </button>
          </Form>
        </div>
      </section>
    </div>
  );
}
