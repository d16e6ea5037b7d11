/**
 * ScreenshotVerifier on a hosted vision model (issue 13, "Beyond"; ADR 045), through the official
 * `openai` SDK (pinned): the model transcribes the screenshot (its lines of text top to bottom,
 * which of them are buttons and whether a button is filled, the stars of a review) and the
 * module's own judge decides, exactly as it does for OCR. The model never gives the verdict: handles
 * and names are still compared by our exact rules (`handleKey`, the author line), so a model that
 * reads 'crumbandgo' generously cannot turn one account into another.
 *
 * Off by default. The image leaves the server only through this adapter, which is used only where
 * the owner turned it on and the survey's disclosure says screenshots go to a vision service
 * (ADR 066): `server/composition.ts` builds one instance when `SCREENSHOT_VISION_API_KEY` is set,
 * and `verifications.verify` (modules/responses) hands it the surveys whose `hostedVision` is on.
 * Any endpoint speaking the Chat Completions API with image input and JSON-schema output works
 * (`baseURL`).
 */
import OpenAI from 'openai';
import sharp from 'sharp';
import {
  EMPTY_VERIFICATION_HISTORY,
  isDateLine,
  ocrFromText,
  verifyReviewWith,
  verifySocialWith,
  type OcrText,
  type OpenedScreenshot,
  type ReviewVerificationRequest,
  type ScreenshotReader,
  type ScreenshotReading,
  type ScreenshotVerifier,
  type SocialVerificationRequest,
  type StarRow,
  type VerificationHistory,
  type VerificationResult,
} from '../../modules/verification/server.ts';
import { openScreenshot } from './preprocess.ts';

export type VisionScreenshotVerifierOptions = {
  apiKey: string;
  /** A model that takes images and JSON-schema output. */
  model: string;
  /** Another endpoint of the same API (a proxy, a compatible service); default the SDK's. */
  baseURL?: string;
  history?: VerificationHistory;
  /** Per request, before the customer is asked to try again; default 30 s. */
  timeoutMs?: number;
  maxRetries?: number;
};

/** The image sent: at most this wide (phone text stays legible) as JPEG, to bound upload and cost. */
const SEND_WIDTH = 1080;

const INSTRUCTIONS = [
  'You transcribe phone screenshots for a program that checks reviews, follows and tags.',
  'Write every line of text you can see, top to bottom, exactly as shown (keep @, dots, underscores and the case of handles; never correct spelling; never add text that is not on screen).',
  'For each line say whether it is plain text, a button, or a filled button (a button with a solid coloured or strongly contrasting background, such as a blue "Follow").',
  'Give the number of filled stars of the review on screen, or null when there is no star row.',
  'Do not judge whether the screenshot is genuine.',
].join(' ');

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['lines', 'stars'],
  properties: {
    lines: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'kind'],
        properties: { text: { type: 'string' }, kind: { type: 'string', enum: ['text', 'button', 'filled_button'] } },
      },
    },
    stars: { type: ['integer', 'null'] },
  },
} as const;

export type VisionTranscript = { lines: Array<{ text: string; kind: 'text' | 'button' | 'filled_button' }>; stars: number | null };

/** The model's answer, checked: null when it is not a transcript. */
export function parseTranscript(content: string | null | undefined): VisionTranscript | null {
  if (!content) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { lines, stars } = value as { lines?: unknown; stars?: unknown };
  if (!Array.isArray(lines)) return null;
  const out: VisionTranscript['lines'] = [];
  for (const line of lines) {
    if (typeof line !== 'object' || line === null) return null;
    const { text, kind } = line as { text?: unknown; kind?: unknown };
    if (typeof text !== 'string' || (kind !== 'text' && kind !== 'button' && kind !== 'filled_button')) return null;
    out.push({ text, kind });
  }
  const starCount = typeof stars === 'number' && Number.isInteger(stars) && stars >= 0 && stars <= 5 ? stars : null;
  return { lines: out, stars: starCount };
}

/** A filled button's colour for the judge (saturated: a call to action) and a page's. */
const FILLED = { r: 0, g: 100, b: 240 };
const PAGE = { r: 255, g: 255, b: 255 };

/**
 * The transcript as the judge's OCR text: one line per transcribed line, buttons' words carrying a
 * fill (filled: saturated; plain: the page's colour) so the judge reads follow buttons as it does
 * from pixels; the star count as a star row just under the first line with a date.
 */
export function transcriptToReading(transcript: VisionTranscript): { ocr: OcrText; starRows: StarRow[] } {
  const lineHeight = 50;
  const ocr = ocrFromText(transcript.lines.map((l) => l.text.replace(/\s+/g, ' ').trim() || '.').join('\n'), lineHeight);
  ocr.background = PAGE;
  ocr.lines.forEach((line, i) => {
    const kind = transcript.lines[i]?.kind;
    if (kind === 'button' || kind === 'filled_button') for (const word of line.words) word.fill = kind === 'filled_button' ? FILLED : PAGE;
  });
  ocr.lines = ocr.lines.filter((l) => l.text !== '.');
  const starRows: StarRow[] = [];
  if (transcript.stars !== null && ocr.lines.length > 0) {
    // The review's stars sit by its date, under the author's name.
    const dated = ocr.lines.find((l) => l.words.length <= 8 && isDateLine(l.text, { short: true })) ?? ocr.lines[0]!;
    starRows.push({ y: dated.bbox.y1 + 1, filled: transcript.stars });
  }
  return { ocr, starRows };
}

export class VisionScreenshotVerifier implements ScreenshotVerifier {
  readonly id = 'vision' as const;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly history: VerificationHistory;
  private readonly reader: ScreenshotReader;

  constructor(options: VisionScreenshotVerifierOptions) {
    if (!options.apiKey) throw new Error('VisionScreenshotVerifier needs an API key');
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 1,
    });
    this.model = options.model;
    this.history = options.history ?? EMPTY_VERIFICATION_HISTORY;
    this.reader = { open: (image) => this.open(image) };
  }

  verifyReview(request: ReviewVerificationRequest): Promise<VerificationResult> {
    return verifyReviewWith(this.reader, this.history, request);
  }

  verifySocial(request: SocialVerificationRequest): Promise<VerificationResult> {
    return verifySocialWith(this.reader, this.history, request);
  }

  async close(): Promise<void> {}

  private open(image: Buffer): Promise<OpenedScreenshot> {
    return openScreenshot(image, () => this.transcribe(image));
  }

  private async transcribe(image: Buffer): Promise<ScreenshotReading> {
    const jpeg = await sharp(image).autoOrient().resize({ width: SEND_WIDTH, withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
    let content: string | null | undefined;
    try {
      const completion = await this.client.chat.completions.create({
        model: this.model,
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'screenshot_transcript', strict: true, schema: SCHEMA } },
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Transcribe this screenshot.' },
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: 'high' } },
            ],
          },
        ],
      });
      content = completion.choices[0]?.message?.content;
    } catch (error) {
      // A timeout, an outage or a refused key: the customer is asked to try again (code unreadable),
      // as for an OCR timeout; the error is not the customer's to read.
      if (error instanceof OpenAI.APIError || error instanceof OpenAI.APIConnectionError) return { kind: 'timeout' };
      throw error;
    }
    const transcript = parseTranscript(content);
    if (!transcript) return { kind: 'timeout' };
    return { kind: 'read', ...transcriptToReading(transcript) };
  }
}
