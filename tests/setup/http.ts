/** Builds Requests the way a browser sends them, and keeps cookies between them. */
export const BASE = 'http://localhost:3000';

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the Set-Cookie headers of a response (an expired or empty cookie is removed). */
  take(response: Response): this {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || attrs.some((a) => /^\s*max-age=0$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  get(name: string) {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export function formRequest(path: string, fields: Record<string, string> | Array<[string, string]>, jar?: CookieJar): Request {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' });
  if (jar) headers.set('Cookie', jar.header());
  return new Request(BASE + path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

export function jsonRequest(path: string, body: unknown, jar?: CookieJar, method = 'POST'): Request {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (jar) headers.set('Cookie', jar.header());
  return new Request(BASE + path, { method, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

export function getRequest(path: string, jar?: CookieJar): Request {
  const headers = new Headers();
  if (jar) headers.set('Cookie', jar.header());
  return new Request(BASE + path, { headers });
}

/** Remix's `data()` results and thrown/returned Responses, reduced to status + body + headers. */
export async function settle(result: unknown): Promise<{ status: number; headers: Headers; body: unknown }> {
  if (result instanceof Response) {
    const text = await result.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: result.status, headers: result.headers, body };
  }
  if (result && typeof result === 'object' && (result as { type?: string }).type === 'DataWithResponseInit') {
    const d = result as unknown as { data: unknown; init: ResponseInit | null };
    return { status: d.init?.status ?? 200, headers: new Headers(d.init?.headers), body: d.data };
  }
  return { status: 200, headers: new Headers(), body: result };
}

/** Runs a loader or action, turning a thrown Response (redirects, 404s) into a result. */
export async function run(fn: () => unknown): Promise<{ status: number; headers: Headers; body: unknown }> {
  try {
    return await settle(await fn());
  } catch (error) {
    if (error instanceof Response) return settle(error);
    throw error;
  }
}
