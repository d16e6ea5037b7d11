/**
 * The survey page's own browser entry (production): hydrates the server-rendered survey with React
 * alone, without the Remix router, to keep what a phone downloads small (issue 4: under 100 KB
 * gzipped). Built by scripts/build-island.ts; the root layout loads it instead of <Scripts /> on
 * pages whose route handle says `bare`. In development the page hydrates through Remix as usual.
 */
import { hydrateRoot } from 'react-dom/client';
import { SURVEY_DATA_ID, SURVEY_ROOT_ID, type SurveyIslandData } from './island-data.ts';
import { SurveyApp } from './survey-page.tsx';
import { englishTranslator, type Translator } from '../../modules/i18n/index.ts';

const root = document.getElementById(SURVEY_ROOT_ID);
const data = document.getElementById(SURVEY_DATA_ID)?.textContent;
if (root && data) {
  const island = JSON.parse(data) as SurveyIslandData;
  const { locale = 'en', messages = {} } = island.page;
  const hydrate = (translator: Translator) => hydrateRoot(root, <SurveyApp page={island.page} action={island.action} translator={translator} />);
  // English needs no library; another language loads i18next as a chunk of its own (ADR 084), which
  // the server already asked the browser to preload (app/root.tsx). Not a top-level await: that
  // chunk imports shared code from this entry, and awaiting it here would wait on itself forever.
  // After the first paint (issue 29): the server's HTML already works without JavaScript (every step
  // is a form post), so hydrating never holds up what a phone paints first.
  const afterPaint = (run: () => void) => requestAnimationFrame(() => setTimeout(run, 0));
  if (locale === 'en') afterPaint(() => hydrate(englishTranslator(messages)));
  else void import('../../modules/i18n/translator.ts').then(({ createTranslator }) => afterPaint(() => hydrate(createTranslator(locale, messages))));
}
