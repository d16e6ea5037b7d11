import { NotFound } from '#app/components/not-found.tsx';

// Any path no other route claims: a real 404 status with the spec's page.
export function loader() {
  throw new Response('Not Found', { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
