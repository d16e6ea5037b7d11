/**
 * Links a customer follows from part 3 (spec 5 "Links"; design brief "Things the spec leaves
 * unshown"): the survey's review URL per review platform, and a profile link per social handle.
 * A leading @ is removed; a full http(s) URL is used as is; an empty handle gives no link. Pure,
 * bundled into the customer's page.
 */
import type { Platform } from './template.ts';

const PROFILE_PATTERNS: Readonly<Partial<Record<Platform, (handle: string) => string>>> = {
  instagram: (h) => `https://www.instagram.com/${h}/`,
  facebook: (h) => `https://www.facebook.com/${h}`,
  x: (h) => `https://x.com/${h}`,
  tiktok: (h) => `https://www.tiktok.com/@${h}`,
};

const isHttpUrl = (value: string) => /^https?:\/\/[^\s/]+/i.test(value);

/** The profile page of a business's handle on a social platform, or null (no handle, or no pattern). */
export function profileUrl(platform: string, handle: string | null | undefined): string | null {
  const trimmed = (handle ?? '').trim();
  if (!trimmed) return null;
  if (isHttpUrl(trimmed)) return trimmed;
  const pattern = PROFILE_PATTERNS[platform as Platform];
  const bare = trimmed.replace(/^@+/, '');
  return pattern && bare ? pattern(encodeURIComponent(bare)) : null;
}

/** Where to leave a review on a platform: the survey's reviewUrls entry when it is an http(s) URL. */
export function reviewUrl(reviewUrls: Readonly<Record<string, string | undefined>>, platform: string): string | null {
  const url = (reviewUrls[platform] ?? '').trim();
  if (!url) return null;
  return isHttpUrl(url) ? url : `https://${url}`;
}

/** '@crumbandco' for display; a pasted profile URL is shown as given. */
export function displayHandle(handle: string | null | undefined): string | null {
  const trimmed = (handle ?? '').trim();
  if (!trimmed) return null;
  return isHttpUrl(trimmed) ? trimmed : `@${trimmed.replace(/^@+/, '')}`;
}
