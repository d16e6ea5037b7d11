import type { LoaderFunctionArgs } from '@remix-run/node';

/** Development only: one outbox email as the raw .eml text (readable in any browser). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  if (!context.outbox) throw new Response('Not Found', { status: 404 });
  const raw = await context.outbox.read(params.file ?? '');
  if (raw === null) throw new Response('Not Found', { status: 404 });
  return new Response(raw, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}
