/**
 * A reused pool of tesseract.js workers (worker threads: OCR never runs on the event loop).
 *
 * - Fully offline: the LSTM models come from the installed @tesseract.js-data/<lang> packages
 *   (langPath is a local folder, read with fs; nothing is fetched and nothing is cached on disk:
 *   cacheMethod 'none'). Without langPath tesseract.js downloads from a CDN. A pool reads with one
 *   model ('eng', the default) or several at once (`langs`: 'eng+spa+por+fra+deu+pol', ADR 076).
 * - Lazy: the first recognise() starts the workers (about 0.3 s each); warmUp() does it ahead.
 * - At most `size` images are in OCR at once; others wait their turn here, so the per-image timeout
 *   measures OCR time, not time in the queue.
 * - A timed-out image leaves its worker busy: that worker generation is retired (new jobs get fresh
 *   workers) and terminated as soon as its other jobs have finished.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { DomainError } from '../../modules/shared/index.ts';
import { createScheduler, createWorker, OEM, type PSM, type RecognizeOptions, type Scheduler } from 'tesseract.js';

const require = createRequire(import.meta.url);

/** The folder holding <lang>.traineddata.gz: the LSTM-only model (eng 2.9 MB; the 4.0.0 folder adds the legacy engine). */
export function languageFolder(lang: string): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

/** The folder holding eng.traineddata.gz (see `languageFolder`). */
export function defaultLangPath(): string {
  return languageFolder('eng');
}

/**
 * Languages beside English whose letters customers' names carry (á é í ó ú ñ ü ö ß ç ã ł ś...):
 * Spanish, Portuguese, French, German and Polish, each from its npm package (ADR 076).
 */
export const NAME_LANGUAGES = ['eng', 'spa', 'por', 'fra', 'deu', 'pol'] as const;

const folders = new Map<string, string>();

/**
 * One folder with every language's model: tesseract.js reads all of a worker's languages from one
 * langPath, and each package keeps its model in a folder of its own. A single language is read
 * where its package put it; several are linked side by side into a folder under the system's
 * temporary directory, once per process, and removed when it exits (links only: nothing is
 * copied, fetched or cached).
 */
export function langPathFor(langs: readonly string[]): string {
  if (langs.length === 1) return languageFolder(langs[0]!);
  const key = langs.join('+');
  let folder = folders.get(key);
  if (!folder) {
    folder = mkdtempSync(path.join(tmpdir(), 'rewardloop-tessdata-'));
    for (const lang of langs) symlinkSync(path.join(languageFolder(lang), `${lang}.traineddata.gz`), path.join(folder, `${lang}.traineddata.gz`));
    folders.set(key, folder);
    // The links go with the process.
    const made = folder;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return folder;
}

export class OcrTimeoutError extends DomainError {
  static override readonly kind = 'OcrTimeoutError';
  constructor(ms: number) {
    super(`OCR took longer than ${ms} ms`);
  }
}

export type TesseractPoolOptions = {
  /** Workers; default min(2, available cores). */
  size?: number;
  langPath?: string;
  /** The models a worker reads with, together (default ['eng']); each from its @tesseract.js-data package unless `langPath` is given. */
  langs?: readonly string[];
  /** Page segmentation mode; 3 (automatic) reads app screens in reading order. */
  pageSegMode?: number;
  /** Workers must be ready within this time (default 60 s), else the image fails with an error. */
  startTimeoutMs?: number;
  /**
   * A folder where each reading is kept by the hash of its image, models and options, and read back
   * instead of OCR when the same image is read again. For the verification bench only (tuning the
   * judge re-reads thousands of unchanged images); the app never sets it.
   */
  cacheDir?: string;
};

type Generation = {
  scheduler: Scheduler;
  ready: Promise<void>;
  inFlight: number;
  retired: boolean;
  terminated: boolean;
};

export class TesseractPool {
  readonly size: number;
  private readonly langPath: string;
  readonly langs: readonly string[];
  private readonly pageSegMode: number;
  private readonly startTimeoutMs: number;
  private readonly cacheDir: string | null;
  private current: Generation | null = null;
  private readonly generations = new Set<Generation>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(options: TesseractPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(2, availableParallelism()));
    this.langs = options.langs?.length ? [...options.langs] : ['eng'];
    this.langPath = options.langPath ?? langPathFor(this.langs);
    this.pageSegMode = options.pageSegMode ?? 3;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.cacheDir = options.cacheDir ?? null;
    if (this.cacheDir) mkdirSync(this.cacheDir, { recursive: true });
  }

  /** Starts the workers now instead of on the first image. */
  async warmUp(): Promise<void> {
    await this.generation().ready;
  }

  /** Workers currently started (for tests and the bench). */
  get started(): boolean {
    return this.current !== null;
  }

  /**
   * OCR of one image (PNG/JPEG bytes) as tesseract TSV (words with line numbers and boxes).
   * Rejects with OcrTimeoutError after `timeoutMs` of OCR, and with the worker's error otherwise.
   * `pageSegMode` overrides the pool's mode for this image only (11, sparse text, finds words that
   * automatic segmentation skips: labels inside buttons, captions over a photo); `adaptiveThreshold`
   * binarises by tiles (uneven lighting).
   */
  async recognize(image: Buffer, timeoutMs: number, options: { pageSegMode?: number; adaptiveThreshold?: boolean } = {}): Promise<string> {
    if (!this.cacheDir) return this.recognizeNow(image, timeoutMs, options);
    const key = createHash('sha256')
      .update(image)
      .update(JSON.stringify([this.langs, options.pageSegMode ?? this.pageSegMode, options.adaptiveThreshold ?? false]))
      .digest('hex');
    const file = path.join(this.cacheDir, `${key}.tsv`);
    if (existsSync(file)) return readFileSync(file, 'utf8');
    const tsv = await this.recognizeNow(image, timeoutMs, options);
    // Whole or not at all: another run reading the same folder never sees half a reading.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, tsv);
    renameSync(partial, file);
    return tsv;
  }

  private async recognizeNow(image: Buffer, timeoutMs: number, options: { pageSegMode?: number; adaptiveThreshold?: boolean }): Promise<string> {
    await this.acquire();
    let gen: Generation | null = null;
    try {
      gen = this.generation();
      gen.inFlight++;
      await gen.ready;
      // The worker passes options it does not know on to tesseract as parameters for this job only
      // (tesseract.js's worker-script recognize()); its types list only its own options.
      const params = {
        ...(options.pageSegMode !== undefined ? { tessedit_pageseg_mode: String(options.pageSegMode) } : {}),
        // Leptonica's adaptive Otsu (tiles) instead of one threshold for the whole image: text under
        // glare or a light-to-dark gradient (a photographed screen) keeps its contrast.
        ...(options.adaptiveThreshold ? { thresholding_method: '1' } : {}),
      } as Partial<RecognizeOptions>;
      const job = gen.scheduler.addJob('recognize', image, params, { text: false, tsv: true });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OcrTimeoutError(timeoutMs)), timeoutMs);
      });
      try {
        const { data } = await Promise.race([job, timeout]);
        return data.tsv ?? '';
      } catch (error) {
        if (error instanceof OcrTimeoutError) {
          job.catch(() => {}); // settles (or never does) on a worker we are about to drop
          this.retire(gen);
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    } finally {
      if (gen) {
        gen.inFlight--;
        this.reap(gen);
      }
      this.release();
    }
  }

  /** Terminates every worker. The pool restarts lazily if used again. */
  async close(): Promise<void> {
    const all = [...this.generations];
    this.current = null;
    for (const gen of all) gen.retired = true;
    await Promise.all(all.map((gen) => this.terminate(gen)));
  }

  private generation(): Generation {
    if (this.current && !this.current.retired) return this.current;
    const scheduler = createScheduler();
    const gen: Generation = { scheduler, ready: Promise.resolve(), inFlight: 0, retired: false, terminated: false };
    gen.ready = (async () => {
      // tesseract.js never settles createWorker() when the language data cannot be loaded (its
      // start-up chain swallows the error), so a wrong path is refused here, before any thread starts.
      for (const lang of this.langs) {
        const data = path.join(this.langPath, `${lang}.traineddata.gz`);
        if (!existsSync(data)) throw new Error(`OCR language data not found at ${data}`);
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`OCR workers did not start within ${this.startTimeoutMs} ms`)), this.startTimeoutMs);
      });
      const pending = Array.from({ length: this.size }, () =>
        createWorker(this.langs.join('+'), OEM.LSTM_ONLY, {
          langPath: this.langPath,
          cacheMethod: 'none',
          gzip: true,
          logger: () => {},
          // Without a handler tesseract.js rethrows worker errors from a message listener,
          // which would crash the process; the job's promise still rejects.
          errorHandler: () => {},
        }),
      );
      let workers: Awaited<(typeof pending)[number]>[];
      try {
        workers = await Promise.race([Promise.all(pending), timeout]);
      } catch (error) {
        // Workers that did start (now or later) are stopped, not leaked.
        for (const worker of pending) worker.then((w) => w.terminate(), () => {});
        throw error;
      } finally {
        clearTimeout(timer);
      }
      for (const worker of workers) {
        await worker.setParameters({ tessedit_pageseg_mode: String(this.pageSegMode) as PSM, user_defined_dpi: '300' });
        scheduler.addWorker(worker);
      }
    })();
    gen.ready.catch(() => {
      // A generation that failed to start is dropped; the next image tries again.
      this.retire(gen);
    });
    this.current = gen;
    this.generations.add(gen);
    return gen;
  }

  private retire(gen: Generation): void {
    gen.retired = true;
    if (this.current === gen) this.current = null;
    this.reap(gen);
  }

  private reap(gen: Generation): void {
    if (gen.retired && gen.inFlight === 0) void this.terminate(gen);
  }

  private async terminate(gen: Generation): Promise<void> {
    if (gen.terminated) return;
    gen.terminated = true;
    this.generations.delete(gen);
    try {
      await gen.ready;
    } catch {
      return; // nothing started
    }
    await gen.scheduler.terminate();
  }

  private acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => resolve()));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
