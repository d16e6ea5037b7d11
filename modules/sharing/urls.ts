/**
 * The survey links. What an owner shares, prints and encodes in a QR code is the short link
 * `origin/s/{code}` (issue 27, ADR 082), with `?bypass_square=true` for the owner's preview; it
 * redirects to the public path of spec section 7 ("Third-party services"),
 * `/survey/public/{businessId}/{surveyId}`, which serves the page. Everything that shares a survey
 * (copy button, QR code, flyer, preview buttons) builds its link here so they can never disagree.
 */

export type PublicSurveyUrlOptions = {
  /** Owner's preview of the customer view: adds `?bypass_square=true`. */
  preview?: boolean;
};

/**
 * Parses and checks an http(s) URL: absolute, no user info. Returns the parsed URL.
 * Throws a TypeError naming `what` otherwise.
 */
export function parseHttpUrl(value: string, what = 'URL'): URL {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${what} must be a non-empty string`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new TypeError(`${what} is not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${what} must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.username || url.password) throw new TypeError(`${what} must not contain credentials`);
  return url;
}

/**
 * Normalises an origin such as `https://app.example.com` or `http://localhost:3000/`
 * (a trailing slash is allowed) to `URL.origin`. A path, query or fragment is refused:
 * that is a page address, not an origin, and silently dropping it would hide a config error.
 */
export function normaliseOrigin(origin: string): string {
  const url = parseHttpUrl(origin, 'origin');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new TypeError(`origin must not have a path, query or fragment: ${JSON.stringify(origin)}`);
  }
  return url.origin;
}

function idSegment(value: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${what} must be a non-empty string`);
  return encodeURIComponent(value.trim());
}

/** `/survey/public/{businessId}/{surveyId}`: the path that serves the customer's page (where a short link leads). */
export function publicSurveyPath(businessId: string, surveyId: string): string {
  return `/survey/public/${idSegment(businessId, 'businessId')}/${idSegment(surveyId, 'surveyId')}`;
}

/** `${origin}/survey/public/{businessId}/{surveyId}`, with `?bypass_square=true` for a preview. */
export function publicSurveyUrl(origin: string, businessId: string, surveyId: string, options: PublicSurveyUrlOptions = {}): string {
  const base = `${normaliseOrigin(origin)}${publicSurveyPath(businessId, surveyId)}`;
  return options.preview ? `${base}?bypass_square=true` : base;
}

/** The path of a short link: `/s/{code}`. */
export function shortLinkPath(code: string): string {
  return `/s/${idSegment(code, 'code')}`;
}

/**
 * `${origin}/s/{code}` (ADR 082), with `?bypass_square=true` for the owner's preview: the link owners
 * copy, print on the flyer and encode in the QR code. No UUID in it.
 */
export function shortSurveyUrl(origin: string, code: string, options: PublicSurveyUrlOptions = {}): string {
  const base = `${normaliseOrigin(origin)}${shortLinkPath(code)}`;
  return options.preview ? `${base}?bypass_square=true` : base;
}
