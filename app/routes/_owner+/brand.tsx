import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type { CSSProperties } from 'react';
import { brandPalette, DEFAULT_BRAND_COLOR, logoPath } from '../../../modules/branding/index.ts';
import { buttonClass, Card, FieldError } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Your brand — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const brand = await context.branding.get(owner.id);
  return { businessName: owner.displayName, color: brand.color, logoUrl: logoPath(owner.id, brand.logoKey) };
}

type ActionData = { errors: { brandColor?: string[]; logo?: string[] }; color: string; suggestion?: string };

/** Saves the colour and a new logo (multipart, works without JavaScript), or removes the logo. */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  if (form.get('intent') === 'remove-logo') {
    await context.branding.removeLogo(owner.id);
    return redirectWithToast(context, '/brand', { title: 'Logo removed', description: 'Your survey shows your business name only.', type: 'success' });
  }
  const color = String(form.get('brandColor') ?? '');
  const logo = form.get('logo');
  const bytes = logo instanceof File && logo.size > 0 ? new Uint8Array(await logo.arrayBuffer()) : null;
  const saved = await context.branding.update(owner.id, { color, logo: bytes });
  if (!saved.ok) {
    return data<ActionData>({ errors: { [saved.field]: [saved.message] }, color, suggestion: saved.suggestion }, saved.status);
  }
  return redirectWithToast(context, '/brand', {
    title: 'Brand saved',
    description: 'Your survey, its Thank You page, reward emails and flyers now use it.',
    type: 'success',
  });
}

export default function BrandPage() {
  const { businessName, color, logoUrl } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const shownColor = result?.color ?? color ?? '';
  const previewColor = /^#[0-9a-f]{6}$/i.test(shownColor) && !result?.errors.brandColor ? shownColor : color ?? DEFAULT_BRAND_COLOR;
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Your brand</h1>
        <p className="text-slate-600">Your logo and colour on the survey customers answer, its Thank You page, the reward email and the printable flyer.</p>
      </div>
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_16rem]">
        <Card>
          <Form method="post" encType="multipart/form-data" className="space-y-5">
            <div>
              <label htmlFor="brandColor" className="block font-semibold">
                Brand colour
              </label>
              <p id="brandColor-help" className="mb-2 text-sm text-slate-600">
                A hex code like #1f7a4d. Buttons show white text on it, so it must be dark enough to read (WCAG AA, 4.5:1). Leave it empty for RewardLoop&apos;s indigo.
              </p>
              <div className="flex flex-wrap items-center gap-3">
                <input
                  id="brandColor"
                  name="brandColor"
                  type="text"
                  inputMode="text"
                  autoComplete="off"
                  defaultValue={shownColor}
                  placeholder={DEFAULT_BRAND_COLOR}
                  maxLength={7}
                  aria-invalid={result?.errors.brandColor ? true : undefined}
                  aria-describedby="brandColor-help brandColor-error"
                  className="block min-h-11 w-40 rounded-lg border border-slate-300 px-3 font-mono aria-[invalid=true]:border-red-700"
                />
                <span aria-hidden className="size-11 rounded-lg border border-slate-300" style={{ background: previewColor }} />
              </div>
              <FieldError id="brandColor-error" errors={result?.errors.brandColor} />
              {result?.suggestion ? (
                <p className="text-sm">
                  <span aria-hidden className="mr-2 inline-block size-4 rounded align-middle" style={{ background: result.suggestion }} />
                  Suggested: <strong className="font-mono">{result.suggestion}</strong> (put it in the field and save).
                </p>
              ) : null}
            </div>
            <div>
              <label htmlFor="logo" className="block font-semibold">
                Logo
              </label>
              <p id="logo-help" className="mb-2 text-sm text-slate-600">
                PNG, JPEG or WebP, up to 5 MB. A transparent PNG looks best. We shrink it to 512 px and remove any hidden data.
              </p>
              <input
                id="logo"
                name="logo"
                type="file"
                accept="image/png,image/jpeg,image/webp"
                aria-invalid={result?.errors.logo ? true : undefined}
                aria-describedby="logo-help logo-error"
                className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700"
              />
              <FieldError id="logo-error" errors={result?.errors.logo} />
            </div>
            <button type="submit" className={buttonClass.primary} disabled={navigation.state !== 'idle'}>
              {navigation.state !== 'idle' ? 'Saving…' : 'Save brand'}
            </button>
          </Form>
          {logoUrl ? (
            <Form method="post" encType="multipart/form-data" className="mt-4 border-t border-slate-100 pt-4">
              <button type="submit" name="intent" value="remove-logo" className={buttonClass.secondary}>
                Remove logo
              </button>
            </Form>
          ) : null}
        </Card>
        <aside aria-label="How customers see it">
          <p className="mb-2 text-sm font-semibold text-slate-700">How customers see it</p>
          <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm" style={brandPalette(previewColor) as CSSProperties}>
            {logoUrl ? <img src={logoUrl} alt={`${businessName} logo`} className="mb-3 h-12 w-auto max-w-full object-contain" /> : null}
            <p className="text-sm text-slate-600">
              Share your experience with <span className="font-semibold">{businessName}</span>
            </p>
            <div className="mt-3 h-2 rounded-full bg-slate-200">
              <div className="h-full w-2/3 rounded-full bg-brand-600" />
            </div>
            <span className="mt-4 inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-brand-600 px-4 font-semibold text-white">Submit for $3</span>
          </div>
          <p className="mt-3 text-sm">
            <Link to="/survey-management" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Preview a survey
            </Link>
          </p>
        </aside>
      </div>
    </main>
  );
}
