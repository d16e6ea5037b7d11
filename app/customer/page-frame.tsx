// The survey page's frame: the page shell with the owner's brand colour, the business's logo and the
// language switcher (ADR 084, 086). Shared by the form, Thank You and 'Survey Not Found'.
import { brandPalette } from '../../modules/branding/index.ts';
import type { CustomerSurveyView } from '../../modules/responses/index.ts';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../modules/i18n/index.ts';
import { useI18n } from '../components/i18n.tsx';

/** The page's URL in another language: its own path and query, `lang` replaced (a plain link: works without JavaScript). */
function languageHref(action: string, lang: string) {
  const url = new URL(action, 'http://x');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

/**
 * The language switcher: the current language, and under it (a native disclosure, so it opens
 * without JavaScript) one plain link per language the survey offers (ADR 086), each named in itself.
 * One line on a 360 px phone. A survey in one language has none. Without a survey ('Survey Not
 * Found'): every language.
 */
export function LanguageSwitcher({ action, languages = LOCALES }: { action: string; languages?: readonly Locale[] }) {
  const { t, locale } = useI18n();
  if (languages.length < 2) return null;
  return (
    <nav aria-label={t('Language')} className="mb-3 flex justify-end" data-testid="language-switcher">
      <details className="relative">
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
          <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="12" cy="12" r="10" />
            <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
          </svg>
          <span className="sr-only">{t('Language')}: </span>
          {LOCALE_NAMES[locale]}
          <svg aria-hidden viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="m4 6 4 4 4-4" />
          </svg>
        </summary>
        <ul className="absolute right-0 z-20 mt-1 min-w-40 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
          {languages.map((lang) => (
            <li key={lang}>
              {lang === locale ? (
                <span lang={lang} aria-current="true" className="flex min-h-11 items-center px-4 text-sm font-semibold text-slate-900">
                  {LOCALE_NAMES[lang]}
                </span>
              ) : (
                <a lang={lang} hrefLang={lang} href={languageHref(action, lang)} className="flex min-h-11 items-center px-4 text-sm text-brand-700 hover:bg-slate-50">
                  {LOCALE_NAMES[lang]}
                </a>
              )}
            </li>
          ))}
        </ul>
      </details>
    </nav>
  );
}

/** The page frame; with the owner's brand colour, the theme's brand shades are replaced inside it. */
export function PageShell({ children, brand }: { children: React.ReactNode; brand?: CustomerSurveyView['brand'] }) {
  const style = brand?.color ? (brandPalette(brand.color) as React.CSSProperties) : undefined;
  return (
    <main className="mx-auto w-full max-w-xl px-4 pb-16 pt-4" style={style}>
      {children}
    </main>
  );
}

/** The business's logo, when it has one. */
export function BrandLogo({ view, className = '' }: { view: CustomerSurveyView; className?: string }) {
  const { t } = useI18n();
  if (!view.brand.logoUrl) return null;
  return <img src={view.brand.logoUrl} alt={t('{{business}} logo', { business: view.businessName })} className={`h-12 w-auto max-w-[60%] object-contain ${className}`} />;
}
