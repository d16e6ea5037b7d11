// Pure: used by the preview page in the browser and by publishing on the server.

export type PublishCheck = { ok: true } | { ok: false; title: 'Review Platform Required' | 'Social Platform Required'; message: string };

/** The guards before preview and publish (spec section 5): at least one review and one social platform. */
export function publishCheck(s: { selectedReviewPlatforms: readonly string[]; selectedSocialPlatforms: readonly string[] }): PublishCheck {
  if (s.selectedReviewPlatforms.length === 0) {
    return { ok: false, title: 'Review Platform Required', message: 'Choose at least one review platform before you preview or publish.' };
  }
  if (s.selectedSocialPlatforms.length === 0) {
    return { ok: false, title: 'Social Platform Required', message: 'Choose at least one social platform before you preview or publish.' };
  }
  return { ok: true };
}
