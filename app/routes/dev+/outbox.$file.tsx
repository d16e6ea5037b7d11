import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { simpleParser, type AddressObject } from 'mailparser';
import { Fragment } from 'react';
import { Card } from '#app/components/ui.tsx';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.subject || 'Email'} — Outbox (development) — RewardLoop` }];

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  return (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');
}

/**
 * Development only: one outbox email as its reader would see it (sender, recipient, subject, the HTML
 * part and the text part with its links clickable), or its raw .eml text with `?raw`. 404 in
 * production or with SMTP.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (!context.outbox) throw new Response('Not Found', { status: 404 });
  const raw = await context.outbox.read(params.file ?? '');
  if (raw === null) throw new Response('Not Found', { status: 404 });
  const headers = { 'Cache-Control': 'no-store' };
  if (new URL(request.url).searchParams.has('raw')) return new Response(raw, { headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  // Quoted-printable and base64 decoded: the links are whole again.
  const mail = await simpleParser(raw);
  return Response.json(
    {
      file: params.file!,
      from: addresses(mail.from),
      to: addresses(mail.to),
      subject: mail.subject ?? '',
      date: mail.date?.toISOString() ?? null,
      text: mail.text ?? '',
      html: mail.html || null,
    },
    { headers },
  );
}

const URL_IN_TEXT = /(https?:\/\/[^\s<>"]+)/g;

/** The text part with every http(s) address a link. */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_IN_TEXT).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all font-medium text-brand-700 underline">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function OutboxMessage() {
  const mail = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-4 py-8">
      <p>
        <Link to="/dev/outbox" className="font-medium text-brand-700 hover:underline">
          ← Outbox
        </Link>
      </p>
      <Card className="space-y-1">
        <h1 className="text-xl font-bold">{mail.subject || '(no subject)'}</h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          <dt className="text-slate-500">From</dt>
          <dd>{mail.from}</dd>
          <dt className="text-slate-500">To</dt>
          <dd>{mail.to}</dd>
          <dt className="text-slate-500">Sent</dt>
          <dd>{mail.date ? new Date(mail.date).toLocaleString('en-US') : 'unknown'}</dd>
        </dl>
        <p className="text-sm">
          <a href={`/dev/outbox/${mail.file}?raw`} className="text-brand-700 hover:underline">
            Raw message (.eml)
          </a>
        </p>
      </Card>
      {mail.html ? (
        <Card>
          <h2 className="mb-2 text-sm font-semibold text-slate-500">As HTML</h2>
          {/* Sandboxed: the email's own markup cannot run scripts; its links open in this tab. */}
          <iframe
            title="The email as HTML"
            sandbox="allow-top-navigation-by-user-activation allow-popups"
            srcDoc={`<base target="_top">${mail.html}`}
            className="h-[32rem] w-full rounded border border-slate-200"
          />
        </Card>
      ) : null}
      <Card>
        <h2 className="mb-2 text-sm font-semibold text-slate-500">As text</h2>
        <pre className="whitespace-pre-wrap break-words font-sans text-sm">
          <LinkedText text={mail.text} />
        </pre>
      </Card>
    </main>
  );
}
