import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { localeCookie, pickLocale, type Locale } from '../../../modules/i18n/index.ts';
import { translatorFor } from '../../../modules/i18n/server.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { readForm } from '#app/utils/input.server.ts';

/**
 * The customer's language (ADR 090): the confirm email's link carries `?lang=` (the response's stored
 * language), then the cookie, then Accept-Language, else English; any of the five languages.
 * The root layout sets `<html lang>` from `locale` for a route with this handle.
 */
export const handle = { customerLocale: true };

function pageLocale(request: Request): { locale: Locale; headers: Record<string, string> } {
  const { locale, source } = pickLocale({
    query: new URL(request.url).searchParams.get('lang'),
    cookie: request.headers.get('Cookie'),
    acceptLanguage: request.headers.get('Accept-Language'),
  });
  return { locale, headers: { Vary: 'Accept-Language, Cookie', ...(source === 'query' ? { 'Set-Cookie': localeCookie(locale) } : {}) } };
}

/** The page's words in the customer's language (server-rendered, the same after hydration). */
function words(locale: Locale) {
  const { t } = translatorFor(locale);
  return {
    title: t('Confirm your email'),
    intro: t('One click confirms this is your email address, and your gift card follows by email.'),
    button: t('Confirm my email'),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [{ title: `${page?.words.title ?? 'Confirm your email'} — RewardLoop` }];

// A GET changes nothing (mail scanners open links): the page asks for one click, which POSTs (ADR 050).
export function loader({ request }: LoaderFunctionArgs) {
  const { locale, headers } = pageLocale(request);
  return data({ locale, words: words(locale) }, { headers });
}

/** POST /reward-confirm/{token}: the customer confirms their email; the gift card follows by email. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  await readForm(request);
  const { locale, headers } = pageLocale(request);
  const { t } = translatorFor(locale);
  const result = await context.rewards.confirmCustomerEmail(params.token ?? '');
  if (!result.ok) return data({ ok: false as const, locale, heading: t('Link not valid'), message: t('This link is not valid. Check that you opened the whole link from the email.') }, { status: 400, headers });
  return data(
    {
      ok: true as const,
      locale,
      heading: t('Email confirmed'),
      message: result.status === 'released' ? t('Thank you! Your gift card is on its way by email.') : t('Thank you! Your reward is being checked and will arrive by email.'),
    },
    { headers },
  );
}

export default function RewardConfirm() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        {result ? (
          <>
            <h1 className="text-2xl font-bold">{result.heading}</h1>
            <p role={result.ok ? 'status' : 'alert'} className="mt-2 text-slate-700">
              {result.message}
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold">{page.words.title}</h1>
            <p className="mt-2 text-slate-600">{page.words.intro}</p>
            <Form method="post" className="mt-6">
              <button type="submit" className={buttonClass.primary}>
                {page.words.button}
              </button>
            </Form>
          </>
        )}
      </Card>
    </main>
  );
}
