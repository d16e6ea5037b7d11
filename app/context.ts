import type { RequestContext } from '../server/composition.ts';

declare module '@remix-run/node' {
  // Loaders and actions receive the request-scoped services of the composition root.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}
declare module '@remix-run/server-runtime' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}

export {};
