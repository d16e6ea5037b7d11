import { isUuid } from '../shared/ids.ts';
import { OWNER_QUESTION_ID } from '../surveys/index.ts';
import { QUESTION_LABELS, questionLabel } from './labels.ts';
import { answerText, iso, num, RESPONSE_COLUMNS, templateText, toCardRow, toResponseRow, type CardRow, type RowOfResponse, type Sql } from './sql.ts';
import type { ResponseAnswer, ResponseDetail, ScreenshotVerdict } from './types.ts';

/** One response in full, for its page in the analytics (issue 28 item 4: split from service.ts). */

/** One response with every answer (labelled, in survey order), its screenshots' verdicts and its reward; null when not the owner's. */
export async function responseDetail(sql: Sql, businessId: string, responseId: string): Promise<ResponseDetail | null> {
    if (!isUuid(responseId)) return null;
    const [row] = await sql<RowOfResponse & { responses: Record<string, unknown>; question_texts: Record<string, string> | null; review_text: string | null }>(
      `select ${RESPONSE_COLUMNS}, r.responses, r.question_texts, r.review_text
         from survey_responses r left join survey_configs s on s.id = r.survey_config_id
        where r.id = ? and r.business_id = ?`,
      [responseId, businessId],
    );
    if (!row) return null;
    const [shots, cards, requests] = await Promise.all([
      sql<{
        id: string;
        kind: ScreenshotVerdict['kind'];
        platform: string;
        is_valid: boolean;
        verdict: 'accepted' | 'rejected' | 'needs_review';
        review_reason: string | null;
        owner_verdict: 'accepted' | 'rejected' | null;
        owner_decided_at: Date | null;
        rejection_reason: string | null;
        star_rating: number | null;
        reviewer_name: string | null;
        review_link: string | null;
        user_handle: string | null;
        review_text: string | null;
        created_at: Date;
      }>(
        `select id, kind, platform, is_valid, verdict, rejection_reason, review_reason, owner_verdict, owner_decided_at, star_rating, reviewer_name, review_link, user_handle, review_text, created_at
           from screenshot_verifications where survey_response_id = ? and business_id = ? order by created_at, id`,
        [responseId, businessId],
      ),
      sql<CardRow>(
        `select i.id, i.survey_response_id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier,
                i.is_square_gift_card, i.card_state, i.card_balance_cents, i.emailed_at, i.email_failed_at
           from gift_card_issuances i where i.survey_response_id = ? and i.business_id = ?`,
        [responseId, businessId],
      ),
      sql<{ attempts: number; failed_at: Date | null }>(`select attempts, failed_at from gift_card_requests where survey_response_id = ? and business_id = ?`, [
        responseId,
        businessId,
      ]),
    ]);
    const shotIds = new Set(shots.map((s) => s.id));
    // The texts this response was asked (issue 16): owner questions and edited template questions show them.
    const asked = row.question_texts ?? {};
    const labelOf = (key: string) => {
      const text = asked[key];
      return text && (OWNER_QUESTION_ID.test(key) || (templateText(key) !== undefined && text !== templateText(key))) ? text : questionLabel(key);
    };
    const answers: ResponseAnswer[] = Object.entries(row.responses ?? {})
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([key, v]) => {
        const value = answerText(v);
        const isShot = QUESTION_LABELS.get(key)?.fieldType === 'image_upload';
        return { key, label: labelOf(key), value, screenshotId: isShot && shotIds.has(value) ? value : null };
      })
      .sort((a, b) => (QUESTION_LABELS.get(a.key)?.order ?? 1e9) - (QUESTION_LABELS.get(b.key)?.order ?? 1e9) || a.key.localeCompare(b.key));
    const card = cards[0];
    const request = requests[0];
    return {
      ...toResponseRow(row),
      reviewText: row.review_text,
      answers,
      screenshots: shots.map((s) => ({
        id: s.id,
        kind: s.kind,
        platform: s.platform,
        isValid: s.is_valid,
        verdict: s.verdict,
        rejectionReason: s.rejection_reason,
        reviewReason: s.review_reason,
        ownerVerdict: s.owner_verdict,
        ownerDecidedAt: s.owner_decided_at ? iso(s.owner_decided_at) : null,
        starRating: s.star_rating,
        reviewerName: s.reviewer_name,
        reviewLink: s.review_link,
        userHandle: s.user_handle,
        reviewText: s.review_text,
        verifiedAt: iso(s.created_at),
      })),
      card: card
        ? (({ surveyResponseId: _r, customerName: _n, customerEmail: _e, ...rest }) => ({ ...rest, emailedAt: card.emailed_at ? iso(card.emailed_at) : null }))(toCardRow(card))
        : null,
      pendingReward: !card && row.reward_tier && (row.reward_value ?? 0) > 0 ? { failed: Boolean(request?.failed_at), attempts: num(request?.attempts) } : null,
    };
}
