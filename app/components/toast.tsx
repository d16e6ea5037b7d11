import { useEffect, useState } from 'react';
import { useI18n } from './i18n.tsx';

export type ToastData = { title: string; description?: string; type?: 'success' | 'error' | 'info' };

const tone = {
  success: 'border-emerald-300 bg-white text-slate-900',
  info: 'border-slate-300 bg-white text-slate-900',
  error: 'border-red-700 bg-red-700 text-white',
} as const;

/**
 * One toast at a time, 5 s (spec section 9). Rendered on the server too, so it shows without
 * JavaScript; a CSS animation hides it after 5 s either way.
 */
export function Toast({ toast }: { toast: ToastData | null | undefined }) {
  // On the survey page, the customer's language: an English title or description is a catalog key (ADR 084).
  const { t } = useI18n();
  const [visible, setVisible] = useState<ToastData | null>(toast ?? null);
  useEffect(() => {
    setVisible(toast ?? null);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), 5000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  const type = visible.type ?? 'info';
  return (
    // On a phone the toast sits at the top, so it never covers the Submit and Continue buttons at the
    // bottom of the screen (issue 27 item 8); from 640 px, bottom right, beside the content.
    <div data-toast-region className="pointer-events-none fixed inset-x-0 top-2 z-50 flex justify-center px-4 sm:top-auto sm:bottom-4 sm:justify-end">
      <div
        role={type === 'error' ? 'alert' : 'status'}
        aria-live={type === 'error' ? 'assertive' : 'polite'}
        data-testid="toast"
        className={`toast-auto-hide pointer-events-auto w-full max-w-sm rounded-card border p-4 shadow-lg ${tone[type]}`}
      >
        <div className="flex items-start gap-3">
          <div className="flex-1">
            <p className="font-semibold">{t(visible.title)}</p>
            {visible.description ? <p className="mt-1 text-sm opacity-90">{t(visible.description)}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => setVisible(null)}
            className="-m-2 min-h-11 min-w-11 rounded text-lg leading-none opacity-70 hover:opacity-100"
            aria-label={t('Dismiss notification')}
          >
            ×
          </button>
        </div>
      </div>
    </div>
  );
}
