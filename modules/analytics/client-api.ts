import { cursorAt, iso, keysetAfter, scoped, type CardRow, type Sql } from './sql.ts';
import type { ClientResponse } from './types.ts';

/** The spec's client API shapes of responses and gift cards, keyset-paged (issue 28 item 4: split from service.ts). */

/**
 * The spec's GET /api/gift-card-issuances: "Gift card issuance (client)" (cents), newest first,
 * `limit` at a time after the keyset `cursor` (issued_at with microseconds, id).
 */
export async function clientGiftCards(
  sql: Sql,
  businessId: string,
  options: { after: { submittedAt: string; id: string } | null; limit: number },
): Promise<{
  issuances: Array<{ id: string; issuedAt: string; customerName: string | null; customerEmail: string; giftCardNumber: string; rewardValue: number; rewardTier: string; isSquareGiftCard: boolean }>;
  next: { submittedAt: string; id: string } | null;
}> {
  const keyset = options.after ? keysetAfter('i.issued_at', 'i.id') : '';
  const rows = await sql<CardRow & { cursor_at: string }>(
    `select i.id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier, i.is_square_gift_card,
            ${cursorAt('i.issued_at')}
       from gift_card_issuances i where i.business_id = ?${keyset}
      order by i.issued_at desc, i.id desc limit ${options.limit + 1}`,
    options.after ? [businessId, options.after.submittedAt, options.after.id] : [businessId],
  );
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return {
    issuances: page.map((r) => ({
      id: r.id,
      issuedAt: iso(r.issued_at),
      customerName: r.customer_name,
      customerEmail: r.customer_email,
      giftCardNumber: r.gift_card_number,
      rewardValue: r.reward_value,
      rewardTier: r.reward_tier,
      isSquareGiftCard: r.is_square_gift_card,
    })),
    next: rows.length > options.limit && last ? { submittedAt: last.cursor_at, id: last.id } : null,
  };
}

/**
 * The spec's GET /api/survey/responses[/{surveyId}]: the client shape, newest first, `limit` at a
 * time after the keyset `cursor` (the last row's submittedAt and id).
 */
export async function clientResponses(
  sql: Sql,
  businessId: string,
  options: { surveyId: string | null; after: { submittedAt: string; id: string } | null; limit: number },
): Promise<{ responses: ClientResponse[]; next: { submittedAt: string; id: string } | null }> {
  const { where, params } = scoped(businessId, { surveyId: options.surveyId, from: null, to: null });
  const keyset = options.after ? keysetAfter('r.submitted_at', 'r.id') : '';
  const rows = await sql<{
    id: string;
    customer_name: string | null;
    customer_email: string | null;
    total_points: number;
    reward_tier: string | null;
    reward_value: number | null;
    submitted_at: Date;
    cursor_at: string;
    responses: Record<string, string | number>;
    review_platform: string | null;
    review_star_rating: number | null;
    reviewer_name: string | null;
    review_text: string | null;
  }>(
    `select r.id, r.customer_name, r.customer_email, r.total_points, r.reward_tier, r.reward_value, r.submitted_at, r.responses,
            r.review_platform, r.review_star_rating, r.reviewer_name, r.review_text,
            ${cursorAt('r.submitted_at')}
       from survey_responses r where ${where}${keyset}
      order by r.submitted_at desc, r.id desc limit ${options.limit + 1}`,
    options.after ? [...params, options.after.submittedAt, options.after.id] : params,
  );
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return {
    responses: page.map((r) => ({
      id: r.id,
      customerName: r.customer_name,
      customerEmail: r.customer_email,
      totalPoints: r.total_points,
      rewardTier: r.reward_tier,
      rewardValue: r.reward_value,
      submittedAt: iso(r.submitted_at),
      responses: r.responses,
      reviewPlatform: r.review_platform,
      reviewStarRating: r.review_star_rating,
      reviewerName: r.reviewer_name,
      reviewText: r.review_text,
    })),
    // The cursor keeps the database's microseconds: a millisecond Date would skip or repeat rows.
    next: rows.length > options.limit && last ? { submittedAt: last.cursor_at, id: last.id } : null,
  };
}
