/**
 * Review links: the domain of each review platform, and whether a link names this business.
 */
import { type ReviewPlatform, PLATFORM_LABELS } from '../port.ts';
import { words, ocrKey, normaliseHandle, handleKey, businessKeys, umlautSpelling } from '../text.ts';
import { GENERIC_BUSINESS_WORDS } from './names.ts';
import { type Verdict, reject } from './verdicts.ts';


// ---------------------------------------------------------------------------------------------
// Review links

const LINK_DOMAINS: Record<ReviewPlatform, RegExp> = {
  // google.com and country domains (google.co.uk, google.de), g.page, goo.gl (maps.app.goo.gl), g.co.
  google: /(^|\.)(google\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})|g\.page|goo\.gl|g\.co)$/,
  yelp: /(^|\.)(yelp\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})|yelp\.to)$/,
  facebook: /(^|\.)(facebook\.com|fb\.com|fb\.me)$/,
};

const LINK_EXAMPLES: Record<ReviewPlatform, string> = {
  google: 'a google.com, g.page or maps.app.goo.gl link',
  yelp: 'a yelp.com link',
  facebook: 'a facebook.com link',
};

/** Facebook paths whose first segment is not a page's name. */
const FACEBOOK_NON_PAGES = new Set(['profile.php', 'permalink.php', 'story.php', 'share', 'sharer', 'sharer.php', 'groups', 'watch', 'photo', 'photo.php', 'reel', 'events', 'marketplace', 'login', 'l.php', 'people', 'hashtag', 'stories', 'notes']);

/** The business a review link names in its path ('crumb and co bakery portland'), or null when the link is opaque (a short link, an id). */
export function businessNamedByLink(platform: ReviewPlatform, url: URL): string | null {
  const segments = url.pathname.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  });
  const host = url.hostname.toLowerCase();
  if (platform === 'yelp') {
    const biz = segments.indexOf('biz');
    const slug = biz >= 0 ? segments[biz + 1] : undefined;
    // A /biz/ slug is words and hyphens; an opaque id (22 characters of base64) is not a name.
    return slug && /-/.test(slug) ? slug.replace(/-/g, ' ') : null;
  }
  if (platform === 'google') {
    const place = segments.indexOf('place');
    if (place >= 0 && segments[place + 1] && !segments[place + 1]!.startsWith('@')) return segments[place + 1]!;
    if (/(^|\.)g\.page$/.test(host) && segments[0] && segments[0] !== 'r') return segments[0].replace(/[-_]/g, ' ');
    return null;
  }
  const first = segments[0]?.toLowerCase();
  // fb.me/<code> is a short link; facebook.com/<page> names the page.
  if (/(^|\.)fb\.me$/.test(host) || !first || FACEBOOK_NON_PAGES.has(first) || /^\d+$/.test(first)) return null;
  if (first === 'pages' && segments[1]) return segments[1].replace(/-/g, ' ');
  return segments[0]!;
}

/** Words of a business name that are long enough to mean something (not 'the', 'cafe', 'co'). */
function distinctiveWords(businessName: string): string[] {
  return words(businessName.replace(/&/g, ' ')).filter((w) => !GENERIC_BUSINESS_WORDS.has(w) && w.length >= 3);
}

/**
 * The review link must be an http(s) URL on the platform's domain (a missing scheme is forgiven)
 * and, where its path names a business, name ours: the whole name, the survey's handle, or the
 * name's first distinctive word ('crumb' in facebook.com/crumbpdx); a Google place or a Yelp slug
 * names the whole listing, so there every distinctive word must agree. Opaque short links pass.
 */
export function checkReviewLink(platform: ReviewPlatform, link: string, business?: { name: string; handle?: string }): Verdict {
  const label = PLATFORM_LABELS[platform];
  const raw = String(link ?? '').trim();
  let url: URL | null = null;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    url = null;
  }
  if (!raw || !url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname.includes('.')) {
    return reject('not_posted', `The review link doesn't look like a web address. Open your posted ${label} review, copy its link and paste it here (it starts with https://).`);
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!LINK_DOMAINS[platform].test(host)) {
    const other = (Object.keys(LINK_DOMAINS) as ReviewPlatform[]).find((p) => p !== platform && LINK_DOMAINS[p].test(host));
    return reject(
      'wrong_platform',
      other
        ? `The review link goes to ${PLATFORM_LABELS[other]}, not ${label}. Paste the link to your review on ${label}.`
        : `The review link goes to ${host}, not ${label}. Paste the link to your review on ${label} (${LINK_EXAMPLES[platform]}).`,
    );
  }
  if (business?.name.trim()) {
    const named = businessNamedByLink(platform, url);
    // A link spells umlauts as people type them without those keys ('kaffeehaus-mueller-wien' on
    // Yelp, 'baeckereisonnenschein' as a Facebook username): either spelling of the name counts.
    const spellings = [business.name, umlautSpelling(business.name)].filter((n): n is string => n !== null);
    if (named && !spellings.some((name) => linkNamesBusiness(named, name, business.handle, platform))) {
      return reject(
        'wrong_business',
        `The review link is for another business ("${named.slice(0, 60)}"). Paste the link to your ${label} review of ${business.name.trim()}.`,
      );
    }
  }
  return { ok: true };
}

function linkNamesBusiness(named: string, businessName: string, handle?: string, platform?: ReviewPlatform): boolean {
  // A Google place link carries the listing's whole name ('Casa+Verde+Cocina'): one name must
  // hold every distinctive word of the other, so a look-alike sharing the first words is not ours.
  if (platform === 'google') {
    const ours = distinctiveWords(businessName);
    const theirs = distinctiveWords(named);
    if (ours.length > 0 && theirs.length > 0 && !theirs.every((w) => ours.includes(w)) && !ours.every((w) => theirs.includes(w))) return false;
  }
  // A Yelp slug is the listing's whole name and its city ('the-copper-pot-savannah'): every
  // distinctive word of ours must be in it, so 'Copper Pot' is not 'The Copper Kettle'.
  if (platform === 'yelp') {
    const ours = distinctiveWords(businessName);
    const slug = words(named).map(ocrKey);
    if (ours.length > 0 && !ours.every((w) => slug.includes(ocrKey(w))) && !(handle && normaliseHandle(handle) && handleKey(named).includes(handleKey(normaliseHandle(handle))))) return false;
  }
  // A Facebook page's username is unique: where the survey has the page's handle, a link to a page
  // by another username is another page, even one with our name in it ('rosastaqueriaofficial'
  // beside the survey's 'rosastaqueria'). (A /pages/<Name>/<id> link names the page by its title.)
  // Facebook ignores periods in usernames ('pierogarniauzosi' is the page 'pierogarnia.uzosi'), and
  // a username holds no underscore: a survey's 'baeckerei_sonnenschein' (its Instagram spelling) is
  // the page 'baeckereisonnenschein'.
  if (platform === 'facebook' && handle && normaliseHandle(handle) && !/\s/.test(named)) return handleKey(named).replace(/[._]/g, '') === handleKey(normaliseHandle(handle)).replace(/[._]/g, '');
  const linkKeys = businessKeys(named);
  if (businessKeys(businessName).some((k) => linkKeys.some((l) => l.includes(k)))) return true;
  if (handle && normaliseHandle(handle) && handleKey(named) === handleKey(normaliseHandle(handle))) return true;
  // Else the name's first distinctive word ('crumb' in yelp.com/biz/crumb-pdx); 'trattoria' alone
  // does not make nonnos-trattoria ours.
  const head = distinctiveWords(businessName)[0];
  return head !== undefined && linkKeys.some((l) => l.includes(ocrKey(head)));
}
