/**
 * The words of the review policy (issue 14, ADR 040): the owner's explanation beside the choice in
 * the builder, the warning for review platforms that ban incentives, and the disclosure customers
 * read on the survey page and in the reward email. Plain strings, browser-safe.
 */
import type { ReviewPolicy, ReviewPlatform } from './template.ts';

/** One or two sentences per choice, for an owner who has never read 16 CFR 465.4. */
export const REVIEW_POLICY_EXPLANATIONS: Readonly<Record<ReviewPolicy, string>> = {
  ask_every:
    'Every customer is offered the review and follow steps, whatever their rating, and earns the same points for them. This is what the rules ask for: the FTC bans rewards that depend on a review being positive (16 CFR 465.4) and warns against asking only happy customers, and Google and Yelp forbid asking selectively.',
  rating_routed:
    'Only customers who rate you 4 or 5 stars are offered the review step; the others are asked how you could improve. The FTC warns against asking only happy customers, and Google and Yelp call this "review gating": reviews collected this way can be removed and your listing flagged.',
};

export const REVIEW_POLICY_RULES_SUMMARY =
  'US law (the FTC rule on consumer reviews, 16 CFR 465.4) and the review sites set rules here: rewards must never depend on what a customer says.';

/** Review platforms whose own policy bans any incentive for a review, whichever policy the survey uses. */
export const INCENTIVE_BANNED_PLATFORMS: Readonly<Partial<Record<ReviewPlatform, string>>> = {
  google: "Google's policy does not allow offering anything in exchange for a review, even when every customer is asked: Google may remove these reviews.",
  yelp: 'Yelp does not allow asking customers for reviews at all, or rewarding them for one: Yelp may remove these reviews and put a warning on your page.',
};

/** The platforms of a selection that ban incentives, in the order given. */
export function incentiveBannedPlatforms(selected: readonly string[]): ReviewPlatform[] {
  return selected.filter((p): p is ReviewPlatform => Object.hasOwn(INCENTIVE_BANNED_PLATFORMS, p));
}

/** What customers are told is rewarded (survey page and reward email). True under both policies. */
export const INCENTIVE_DISCLOSURE =
  'Your reward is for taking part: points for the questions you answer and for each review, follow or post you share (checked by its screenshot). Any honest opinion counts: a review earns the same points whatever its stars or words.';

/** The sentence that follows it, per policy: what the rating changes (nothing, or which steps are offered). */
export const POLICY_DISCLOSURE: Readonly<Record<ReviewPolicy, string>> = {
  ask_every: 'Every customer is offered the same steps, whatever their rating.',
  rating_routed: 'Which sharing steps you are offered depends on your overall rating.',
};

export function incentiveDisclosure(policy: ReviewPolicy): string {
  return `${INCENTIVE_DISCLOSURE} ${POLICY_DISCLOSURE[policy]}`;
}

/**
 * Said where screenshots are uploaded when the owner chose the hosted vision verifier (ADR 066):
 * the customer knows, before choosing a file, that it is sent to a third party.
 */
export const HOSTED_VISION_DISCLOSURE =
  'This business has screenshots checked by a hosted AI service (OpenAI): the screenshots you upload here are sent to it to be read, and to nothing else.';
