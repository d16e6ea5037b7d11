/**
 * The part-3 screenshots of the survey page in the browser (spec 4): the files the customer chose
 * and their thumbnails, and the queue that verifies them one at a time through /api/verify-*
 * (duplicates skipped, starting 50 ms after a block is queued: 500 ms after a file is chosen,
 * 100 ms after a block's field loses focus). Each block's state (idle, verifying, verified,
 * failed) and its screenshot answer (the verification id) live in the page's step. Editing a
 * review resets its verification; a follow or tag stays verified. The demo and a builder draft
 * pretend (1.5 s, nothing leaves the browser); an owner's preview of a saved survey verifies for real.
 */
import { useEffect, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import { blockEvidence, blockKey, blockScreenshotKey, chosenScreenshotProblem, isSaved, type BlockState, type SavedSurveyView, type CustomerSurveyView } from '../../modules/responses/index.ts';
import { allQuestions, answerKey, isBlock, VERIFICATION_KIND_BY_TYPE, type Answers, type Block, type SurveyTemplate } from '../../modules/surveys/index.ts';
import type { ToastData } from '../components/toast.tsx';
import type { UploadApi } from './questions.tsx';
import { readError, refusalMessage, sleep } from './fetching.ts';
import type { SurveyStep } from './state.ts';
import { rejectionMessage, type Translator } from '../../modules/i18n/index.ts';
import { platformLabel } from './localize.ts';

export type VerifyAnswer = { isValid: boolean; rejectionReason: string | null; rejectionCode?: string | null; verdict?: string; verificationId?: string } | { error: string };

/**
 * The block's state for a verify API's answer (no connection error): verified, and still to be
 * checked by the business when the verdict is needs_review (ADR 077), or failed with the reason.
 */
export function verifiedState(result: Exclude<VerifyAnswer, { error: string }>, say?: { tr: Pick<Translator, 'locale' | 't'>; platform: string }): BlockState {
  if (result.isValid && result.verificationId) return { status: 'verified', ...(result.verdict === 'needs_review' ? { checking: true } : {}) };
  // In another language than English, the sentence of the rejection code (ADR 090); English keeps the verifier's words.
  if (say && say.tr.locale !== 'en') return { status: 'failed', error: rejectionMessage(say.tr, result.rejectionCode, result.rejectionReason, say.platform) };
  return { status: 'failed', error: result.rejectionReason ?? 'Please upload a different screenshot...' };
}

/**
 * The request that verifies a block's screenshot (spec 7): /api/verify-screenshot for a review
 * (reviewer name and link), /api/verify-social for a follow or a tag (the customer's handle, the
 * business's handle and the verification type), with the survey it belongs to.
 */
export function verificationRequest(view: SavedSurveyView, q: Block, answers: Answers, screenshot: Blob): { url: string; body: FormData } {
  const evidence = blockEvidence(q, answers);
  const body = new FormData();
  body.set('businessId', view.businessId);
  body.set('surveyId', view.surveyId);
  body.set('bypassSquare', String(view.bypassSquare));
  body.set('platform', evidence.platform);
  body.set('screenshot', screenshot);
  if (evidence.kind === 'review') {
    body.set('reviewerName', evidence.reviewerName ?? '');
    body.set('reviewLink', evidence.reviewLink ?? '');
    return { url: '/api/verify-screenshot', body };
  }
  body.set('userHandle', evidence.userHandle ?? '');
  body.set('businessHandle', view.socialHandles[evidence.platform] ?? '');
  body.set('verificationType', evidence.kind);
  return { url: '/api/verify-social', body };
}

/** A block can be verified once every field is filled and its screenshot chosen. */
export function blockReady(q: Block, answers: Answers, chosen: (screenshotKey: string) => boolean): boolean {
  return (q.fields ?? []).every((f) => {
    const key = answerKey(q.id, f.id);
    return f.type === 'image_upload' ? chosen(key) : String(answers[key] ?? '').trim() !== '';
  });
}

/** The block an answer key belongs to ('review_google_reviewer_name' -> the Google review block), if any. */
export function blockOfField(blocks: readonly Block[], key: string): Block | undefined {
  return blocks.find((q) => q.fields?.some((f) => answerKey(q.id, f.id) === key));
}

type Deps = {
  view: CustomerSurveyView;
  template: SurveyTemplate;
  stepRef: MutableRefObject<SurveyStep>;
  setStep: Dispatch<SetStateAction<SurveyStep>>;
  toast: (t: ToastData | null) => void;
  /** The customer's language: rejection reasons and connection errors are said in it (ADR 090). */
  tr?: Pick<Translator, 'locale' | 't'>;
};

export function useVerificationQueue({ view, template, stepRef, setStep, toast, tr }: Deps) {
  const [thumbs, setThumbs] = useState<Record<string, string>>({});
  // The latest thumbnails, revoked when the page goes away.
  const thumbsRef = useRef(thumbs);
  useEffect(() => {
    thumbsRef.current = thumbs;
  }, [thumbs]);
  const files = useRef<Record<string, File>>({});
  const queue = useRef<string[]>([]);
  const running = useRef<string | null>(null);
  const generation = useRef<Record<string, number>>({});
  const blocks = allQuestions(template).filter(isBlock);

  useEffect(() => () => Object.values(thumbsRef.current).forEach((u) => URL.revokeObjectURL(u)), []);

  const setBlock = (q: Block, state: BlockState, answer?: string | null) =>
    setStep((s) => {
      const answers = { ...s.answers };
      const shot = blockScreenshotKey(q);
      if (answer === null) delete answers[shot];
      else if (answer !== undefined) answers[shot] = answer;
      return { ...s, answers, states: { ...s.states, [blockKey(q)]: state } };
    });

  const ready = (q: Block) => blockReady(q, stepRef.current.answers, (key) => Boolean(files.current[key]));

  async function verifyRemote(q: Block): Promise<VerifyAnswer> {
    if (!isSaved(view)) {
      await sleep(1500); // the demo and a draft preview pretend (nothing leaves the browser)
      return { isValid: true, rejectionReason: null, verificationId: 'preview' };
    }
    const { url, body } = verificationRequest(view, q, stepRef.current.answers, files.current[blockScreenshotKey(q)] ?? new Blob());
    try {
      const res = await fetch(url, { method: 'POST', body });
      if (!res.ok) {
        const { message } = await readError(res);
        return { error: tr ? refusalMessage(res, message, tr) : message };
      }
      return (await res.json()) as VerifyAnswer;
    } catch {
      return { error: 'The connection failed. Please try again.' };
    }
  }

  async function pump() {
    if (running.current) return;
    const id = queue.current.shift();
    if (!id) return;
    const q = blocks.find((x) => x.id === id);
    if (!q || !ready(q)) return void pump();
    running.current = id;
    const gen = generation.current[id] ?? 0;
    setBlock(q, { status: 'verifying' });
    const review = VERIFICATION_KIND_BY_TYPE[q.type] === 'review';
    const result = await verifyRemote(q);
    if ((generation.current[id] ?? 0) === gen) {
      if ('error' in result) {
        setBlock(q, { status: 'failed', error: result.error }, null);
        const again = tr ? `${tr.t(result.error)} ${tr.t('Please try again.')}` : `${result.error} Please try again.`;
        toast({ title: review ? 'Verification Error' : 'Social Verification Error', description: again, type: 'error' });
      } else {
        const state = verifiedState(result, tr ? { tr, platform: platformLabel(q.platform) } : undefined);
        setBlock(q, state, state.status === 'verified' ? result.verificationId : null);
        if (state.status === 'failed') toast({ title: review ? 'Screenshot Verification Failed' : 'Social Verification Failed', description: state.error ?? '', type: 'error' });
      }
    }
    running.current = null;
    void pump();
  }

  const enqueue = (q: Block, delay: number) =>
    setTimeout(() => {
      if (!ready(q) || queue.current.includes(q.id) || running.current === q.id) return;
      if (stepRef.current.states[blockKey(q)]?.status === 'verified') return;
      queue.current.push(q.id);
      setTimeout(() => void pump(), 50);
    }, delay);

  /** Editing a review resets its verification; social ones stay verified once verified (spec 4). */
  function resetBlock(q: Block) {
    generation.current[q.id] = (generation.current[q.id] ?? 0) + 1;
    queue.current = queue.current.filter((x) => x !== q.id);
    setBlock(q, { status: 'idle' }, null);
  }

  const uploads: UploadApi = {
    preview: (key) => thumbs[key],
    choose(key, file) {
      const q = blockOfField(blocks, key);
      if (!q) return;
      if (thumbs[key]) URL.revokeObjectURL(thumbs[key]);
      // A file over 10 MB is refused here, at once: nothing is uploaded (the server would refuse it too).
      const problem = file ? chosenScreenshotProblem(file) : null;
      const kept = problem ? null : file;
      if (kept) files.current[key] = kept;
      else delete files.current[key];
      setThumbs((t) => {
        const next = { ...t };
        if (kept) next[key] = URL.createObjectURL(kept);
        else delete next[key];
        return next;
      });
      resetBlock(q);
      if (problem) setBlock(q, { status: 'failed', error: problem }, null);
      if (kept) enqueue(q, 500);
    },
  };

  return {
    uploads,
    /** A field was edited: a started review goes back to idle (its verification covered the old values). */
    edited(key: string) {
      const q = blockOfField(blocks, key);
      const status = q ? stepRef.current.states[blockKey(q)]?.status : undefined;
      if (q && VERIFICATION_KIND_BY_TYPE[q.type] === 'review' && status !== undefined && status !== 'idle') resetBlock(q);
    },
    /** A field lost focus: once focus has left the block (100 ms), the block is queued if it is ready. */
    blurred(key: string) {
      const q = blockOfField(blocks, key);
      if (!q) return;
      setTimeout(() => {
        const focused = document.activeElement;
        const inBlock = focused instanceof HTMLInputElement && (q.fields ?? []).some((f) => focused.name === answerKey(q.id, f.id));
        if (!inBlock) enqueue(q, 0);
      }, 100);
    },
    /** Screenshot keys with a file chosen but no verification id yet. */
    pending: () => new Set(Object.keys(files.current).filter((k) => stepRef.current.answers[k] === undefined)),
    /** The submission refused this block's screenshot: its files and thumbnails go (the step clears its answers). */
    forget(questionId: string) {
      const q = blocks.find((x) => x.id === questionId);
      for (const f of q?.fields ?? []) delete files.current[answerKey(questionId, f.id)];
      setThumbs((t) => Object.fromEntries(Object.entries(t).filter(([k]) => !k.startsWith(`${questionId}_`))));
    },
  };
}
