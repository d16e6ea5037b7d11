import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Card } from '#app/components/ui.tsx';

export const meta: MetaFunction = () => [{ title: 'Outbox (development) — RewardLoop' }];

/** Development only: the emails the OutboxMailer wrote instead of sending. 404 in production or with SMTP. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (!context.outbox) throw new Response('Not Found', { status: 404 });
  const entries = await context.outbox.list();
  return { entries: entries.map((e) => ({ ...e, sentAt: e.sentAt.toISOString() })) };
}

export default function Outbox() {
  const { entries } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-4 py-8">
      <div>
        <h1 className="text-2xl font-bold">Outbox</h1>
        <p className="text-slate-600">Development only: emails are written here instead of being sent, because SMTP_URL is not set.</p>
      </div>
      <Card>
        {entries.length === 0 ? (
          <p className="text-slate-600">No emails yet. Sign up or trigger a reward and they will appear here.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-500">
                <th className="py-2 pr-3 font-medium">Sent</th>
                <th className="py-2 pr-3 font-medium">To</th>
                <th className="py-2 font-medium">Subject</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.file} className="border-b border-slate-100">
                  <td className="py-2 pr-3 whitespace-nowrap text-slate-600">{new Date(e.sentAt).toLocaleString('en-US')}</td>
                  <td className="py-2 pr-3">{e.to}</td>
                  <td className="py-2">
                    <Link to={`/dev/outbox/${e.file}`} reloadDocument className="font-medium text-brand-700 hover:underline">
                      {e.subject || '(no subject)'}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </main>
  );
}
