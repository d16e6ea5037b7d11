import type { ReactNode } from 'react';

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <article className="space-y-4 leading-relaxed text-slate-800 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_ul]:list-disc [&_ul]:pl-6">
        <h1 className="text-3xl font-bold">{title}</h1>
        <p className="text-sm text-slate-500">Last updated {updated}</p>
        {children}
      </article>
    </main>
  );
}
