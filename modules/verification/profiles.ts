/**
 * Platform knowledge as data (issue 31 item 4): what each app shows, per UI language, in the words
 * the app itself uses. The judge reads its words from here and keeps only the layout logic (which
 * line, how near, which colour); adding a UI language is adding its words here.
 *
 * Words are written as the apps show them ('Gefällt mir', 'Odpowiedź właściciela') and matched
 * against OCR lines folded by `fold` (lowercase, accents off, 'ß' as 'ss', 'ł' as 'l'): see
 * `phraseSource`. OCR variants that are not words of the app (a doubled apostrophe, a garbled
 * ending) are said where they are allowed, with what OCR made of the word.
 *
 * Languages: English, Spanish, French, Portuguese, German and Polish (ADR 085), Italian (ADR 096). Where an app has no
 * word of its own in a language (Google Maps says 'Local Guide' in German too), the English one is
 * what the app shows.
 *
 * Over 400 lines on purpose (issue 28 item 4): one concept, the apps' own words, kept in one table so
 * that adding a language or an app is done in one place; almost all of it is data.
 */
import type { ReviewPlatform, SocialPlatform } from './port.ts';
import { fold } from './text.ts';

export const UI_LANGUAGES = ['en', 'es', 'fr', 'pt', 'de', 'pl', 'it'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** Words or phrases per UI language, as the app shows them. */
export type Phrases = Readonly<Partial<Record<UiLanguage, readonly string[]>>>;

/** Every phrase of every language, folded, longest first (so an alternation prefers 'liked by' to 'liked'). */
export function phraseList(...lists: Phrases[]): string[] {
  const all = new Set<string>();
  for (const list of lists) for (const lang of UI_LANGUAGES) for (const phrase of list[lang] ?? []) all.add(fold(phrase).trim());
  return [...all].sort((a, b) => b.length - a.length);
}

/**
 * A regular-expression source matching any of the phrases in a folded line: regex characters
 * escaped, a space as one or more spaces, an apostrophe as any number of them (OCR drops the
 * apostrophe of "J'aime" or doubles it: "J''aime").
 */
export function phraseSource(...lists: Phrases[]): string {
  return phraseList(...lists)
    .map((p) =>
      p
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\s+/g, '\\s+')
        .replace(/'/g, "'*"),
    )
    .join('|');
}

/** A pattern matching one of the phrases as whole words (`\b` both sides) in a folded line. */
export function phrasePattern(...lists: Phrases[]): RegExp {
  return new RegExp(`\\b(${phraseSource(...lists)})\\b`);
}

/** The folded one-word phrases of the lists, as a set (button labels, counter words). */
export function wordSet(...lists: Phrases[]): Set<string> {
  return new Set(phraseList(...lists));
}

// ---------------------------------------------------------------------------------------------
// Shared by every app: time, dates, a reply link

/**
 * Relative times as the apps write them under a review or a post ('2 days ago', 'hace 2 días',
 * 'il y a 3 jours', 'há 2 semanas', 'vor 2 Tagen', '2 dni temu'), as regular-expression sources over
 * folded text (the number may be a word: 'a week ago', 'vor einer Woche', 'tydzień temu').
 */
export const RELATIVE_TIME: Readonly<Record<UiLanguage, string>> = {
  en: String.raw`\b(\d+|a|an|one)\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?|yrs?|[smhdwy])\s*ago\b`,
  // Spanish, French and Portuguese put the word first: 'hace 2 días', 'il y a 3 jours', 'há 2 semanas'.
  es: String.raw`\b(hace)\s*(\d+|un|una)\s*\p{L}+`,
  fr: String.raw`\b(il ?y ?a)\s*(\d+|un|une)\s*\p{L}+`,
  pt: String.raw`\b(ha|há)\s*(\d+|um|uma)\s*\p{L}+`,
  // German: 'vor 2 Tagen', 'vor einer Woche', 'vor einem Monat', 'vor 3 Stunden'.
  de: String.raw`\bvor\s*(\d+|einer?m?|einigen)\s*(sekunden?|minuten?|stunden?|tag(en)?|wochen?|monat(en)?|jahr(en)?)\b`,
  // Polish: '2 dni temu', 'tydzień temu', '3 tygodnie temu', 'miesiąc temu', 'rok temu', '5 lat temu'.
  // (The English model reads 'ą' as 'g' or 'q': 'miesigc temu'; and may glue the words: '2dnitemu'.)
  pl: String.raw`\b(\d+\s*)?(sekund[ay]?|minut[ay]?|godzin[ay]?|godz\.?|dzien|dni|tydzien|tygodni[ea]?|miesi[agq]c[ey]?|miesiecy|rok|lat[a]?)\s*temu\b`,
  // Italian: '6 giorni fa', 'una settimana fa', '3 ore fa', 'un mese fa', '2 anni fa'.
  it: String.raw`\b(\d+|un|una|uno)\s*(second[oi]|minut[oi]|or[ae]|giorn[oi]|settiman[ae]|mes[ei]|ann[oi])\s*fa\b`,
};

/** 'Yesterday' and 'Today' ('Yesterday at 3:14 PM' on Facebook). */
export const DAY_WORDS: Phrases = {
  en: ['yesterday', 'today'],
  es: ['ayer', 'hoy'],
  fr: ['hier', "aujourd'hui"],
  pt: ['ontem', 'hoje'],
  de: ['gestern', 'heute'],
  pl: ['wczoraj', 'dzisiaj', 'dziś'],
  it: ['ieri', 'oggi'],
};

/**
 * Month names by their first letters, folded ('Okt', 'paź' as 'paz', 'März' as 'marz'), in every
 * language; a date matches '<month>[a-z]*'. (OCR reads October's 'O' as a zero: '0ct'.)
 */
export const MONTH_STEMS: readonly string[] = [
  // en, es, fr, pt
  'jan', 'feb', 'fev', 'mar', 'apr', 'abr', 'avr', 'may', 'mai', 'mayo', 'jun', 'juin', 'jul', 'juil', 'aug', 'ago', 'aou', 'sep', 'set', 'oct', '0ct', 'out', 'nov', 'dec', 'dez', 'dic', 'ene', 'enero',
  // de (Januar, Februar, März, April, Mai, Juni, Juli, August, September, Oktober, November, Dezember)
  'marz', 'okt',
  // pl (stycznia, lutego, marca, kwietnia, maja, czerwca, lipca, sierpnia, września, października, listopada, grudnia)
  'sty', 'lut', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paz', 'lis', 'gru',
  // it (gennaio, febbraio, marzo, aprile, maggio, giugno, luglio, agosto, settembre, ottobre, novembre, dicembre)
  'gen', 'mag', 'giu', 'lug', 'ott',
];

/** Words a date line carries beside its number: units, 'ago', 'yesterday' (a date line is not prose because of them). */
export const DATE_LINE_WORDS: Phrases = {
  en: ['ago', 'a', 'an', 'one', 'seconds', 'second', 'secs', 'sec', 'minutes', 'minute', 'mins', 'min', 'hours', 'hour', 'hrs', 'hr', 'days', 'day', 'weeks', 'week', 'wks', 'wk', 'months', 'month', 'mos', 'mo', 'years', 'year', 'yrs', 'yr', 'edited', 'new', 'public'],
  es: ['hace', 'dia', 'dias', 'semana', 'semanas', 'meses'],
  fr: ['il', 'y', 'jour', 'jours', 'semaine', 'semaines', 'mois'],
  pt: ['ha'],
  de: ['vor', 'tag', 'tagen', 'woche', 'wochen', 'monat', 'monaten', 'jahr', 'jahren', 'stunden', 'minuten', 'einer', 'einem', 'neu', 'bearbeitet'],
  pl: ['temu', 'dni', 'dzien', 'tydzien', 'tygodnie', 'tygodni', 'miesiac', 'miesiace', 'miesiecy', 'rok', 'lata', 'lat', 'nowa', 'nowe', 'edytowano'],
  it: ['fa', 'giorno', 'giorni', 'settimana', 'settimane', 'mese', 'mesi', 'anno', 'anni', 'ora', 'ore', 'minuti', 'nuovo', 'nuova', 'modificata'],
};

/** A comment's reply link ('Reply', 'Antworten', 'Odpowiedz'): the line above it is a comment. */
export const REPLY_WORDS: Phrases = {
  en: ['reply'],
  es: ['responder'],
  fr: ['repondre'],
  pt: ['responder'],
  de: ['antworten'],
  pl: ['odpowiedz'],
  it: ['rispondi'],
};

// ---------------------------------------------------------------------------------------------
// Review platforms

export type ReviewProfile = {
  /** The app's name as it shows on screen ('Google', 'Yelp', 'Facebook'). */
  names: readonly string[];
  /** Counts of reviews beside a number ('23 reviews', '12 Rezensionen', '5 opinii'). */
  reviewCounts: Phrases;
};

/** Google Maps: the place sheet's Reviews tab and the reviewer's Contributions. */
export const GOOGLE = {
  names: ['google', 'maps'],
  /** The reviewer's badge under their name; Google Maps keeps the English 'Local Guide' in German. */
  localGuide: { en: ['Local Guide'], es: ['Guía local'], fr: ['Guide local'], pt: ['Guia local'], de: ['Local Guide'], pl: ['Lokalny przewodnik', 'Przewodnik lokalny'], it: ['Local Guide'] },
  /** The owner's answer under a review. */
  ownerResponse: {
    en: ['Response from the owner', 'Response from the business'],
    es: ['Respuesta del propietario', 'Respuesta del dueño'],
    fr: ['Réponse du propriétaire'],
    pt: ['Resposta do proprietário'],
    de: ['Antwort vom Inhaber', 'Antwort des Inhabers'],
    pl: ['Odpowiedź właściciela'],
    it: ['Risposta del proprietario'],
  },
  reviewCounts: {
    en: ['review', 'reviews'],
    es: ['reseña', 'reseñas', 'resena', 'resenas'],
    fr: ['avis'],
    pt: ['avaliação', 'avaliações'],
    de: ['Rezension', 'Rezensionen', 'Bewertung', 'Bewertungen'],
    pl: ['opinia', 'opinie', 'opinii', 'recenzja', 'recenzje', 'recenzji'],
    it: ['recensione', 'recensioni'],
  },
  /** The Like button under a review (Google's row has Like and Share, no Comment). */
  like: { en: ['like'], es: ['me gusta'], fr: ["j'aime"], pt: ['curtir', 'gostei'], de: ['mag ich', 'gefällt mir', 'hilfreich'], pl: ['lubię to', 'lubie to', 'przydatne'], it: ['mi piace'] },
  share: { en: ['share'], es: ['compartir'], fr: ['partager'], pt: ['compartilhar'], de: ['teilen'], pl: ['udostępnij'], it: ['condividi'] },
  /** The place sheet's tabs and the reviews' sort chips ('Overview … Reviews', 'Most relevant', 'Newest'). */
  tabs: {
    en: ['most relevant'],
    es: ['más relevantes'],
    fr: ['les plus pertinents'],
    pt: ['mais relevantes'],
    de: ['relevanteste', 'am relevantesten', 'neueste'],
    pl: ['najtrafniejsze', 'najbardziej trafne', 'najnowsze'],
    it: ['più pertinenti', 'più recenti'],
  },
  /** The place sheet's tab bar: Overview then Reviews on one line. */
  overview: { en: ['overview'], de: ['übersicht'], pl: ['przegląd'], it: ['panoramica'] },
  reviewsTab: { en: ['reviews'], de: ['rezensionen', 'bewertungen'], pl: ['opinie', 'recenzje'], it: ['recensioni'] },
  /** The search box's placeholder at the top of the map ('Search here'): no place's name. */
  searchHere: { en: ['search here'], es: ['buscar aquí', 'busca aquí'], fr: ['rechercher ici'], pt: ['pesquise aqui', 'pesquisar aqui'], de: ['hier suchen'], pl: ['szukaj tutaj', 'wyszukaj tutaj'], it: ['cerca qui'] },
  /** 'Visited in November' under a review. */
  visited: { en: ['visited in'], de: ['besucht im'], pl: ['odwiedzono w'] },
} as const satisfies ReviewProfile & Record<string, unknown>;

/** Yelp: the business page's Recommended Reviews and the reviewer's profile. */
export const YELP = {
  names: ['yelp'],
  /**
   * The reactions row under a review: today's Yelp shows Helpful, Thanks, Love this, Oh no (older
   * builds Useful, Funny, Cool). In German 'Hilfreich', 'Danke', 'Gefällt mir', 'Oh nein'; in
   * Polish 'Pomocne', 'Dzięki', 'Uwielbiam to', 'O nie'.
   */
  helpful: { en: ['helpful'], es: ['útil'], fr: ['utile'], pt: ['útil'], de: ['hilfreich'], pl: ['pomocne', 'przydatne'], it: ['utile'] },
  thanks: { en: ['thanks'], es: ['gracias'], fr: ['merci'], pt: ['obrigado', 'obrigada'], de: ['danke'], pl: ['dzięki', 'dziękuję'], it: ['grazie'] },
  loveThis: { en: ['love this'], es: ['me encanta'], fr: ["j'adore"], pt: ['amei'], de: ['gefällt mir'], pl: ['uwielbiam to'], it: ['lo adoro'] },
  /** The reactions only Yelp shows (Google's and Facebook's rows have Like, not these). */
  ownReactions: { en: ['love this', 'oh no'], de: ['oh nein'], pl: ['uwielbiam to'] },
  ohNo: { en: ['oh no'], es: ['oh no'], fr: ['oh non'], pt: ['ah não'], de: ['oh nein'], pl: ['o nie'], it: ['oh no'] },
  /** The heading over the reviews of a business. */
  recommendedReviews: {
    en: ['recommended reviews'],
    es: ['reseñas recomendadas'],
    fr: ['avis recommandés'],
    pt: ['avaliações recomendadas'],
    de: ['empfohlene beiträge', 'empfohlene bewertungen'],
    pl: ['polecane opinie', 'polecane recenzje'],
    it: ['recensioni consigliate'],
  },
  /** The reviewer's line: '12 friends · 34 reviews'. */
  friends: { en: ['friend', 'friends'], es: ['amigos', 'amigo'], fr: ['amis', 'ami'], pt: ['amigos', 'amigo'], de: ['freunde', 'freund'], pl: ['znajomych', 'znajomi'], it: ['amici', 'amico'] },
  reviewCounts: {
    en: ['review', 'reviews'],
    es: ['reseñas', 'resenas'],
    fr: ['avis'],
    pt: ['avaliações'],
    de: ['beiträge', 'bewertungen', 'rezensionen'],
    pl: ['opinii', 'opinie', 'recenzji', 'recenzje'],
    it: ['recensioni', 'recensione'],
  },
  checkIns: { en: ['check-in', 'check-ins', 'check in', 'check ins', 'checkin', 'checkins'] },
  elite: { en: ['elite'] },
  updated: { en: ['updated review', 'previous review'], de: ['aktualisierter beitrag', 'vorheriger beitrag'], pl: ['zaktualizowana opinia', 'poprzednia opinia'] },
} as const satisfies ReviewProfile & Record<string, unknown>;

/** Facebook: a page's Reviews tab, where a review is a recommendation. */
export const FACEBOOK_REVIEWS = {
  names: ['facebook', 'fb.com'],
  /**
   * The author line: 'Priya Shah recommends Crumb & Co' ('recomienda', 'recommande', 'recomenda',
   * 'empfiehlt', 'poleca'; 'doesn't recommend', 'empfiehlt nicht', 'nie poleca'). French 'recommande'
   * is also a reviewer's own 'je recommande' in the text: see the judge's `RECOMMENDS`.
   */
  recommends: {
    en: ['recommends', "doesn't recommend", 'doesnt recommend'],
    es: ['recomienda'],
    pt: ['recomenda'],
    de: ['empfiehlt'],
    pl: ['poleca'],
    it: ['consiglia'],
  },
  /** The action bar under a post or review: Like, Comment, Share. */
  like: { en: ['like'], es: ['me gusta'], fr: ["j'aime"], pt: ['curtir'], de: ['gefällt mir'], pl: ['lubię to', 'lubie to'], it: ['mi piace'] },
  comment: { en: ['comment'], es: ['comentar'], fr: ['commenter'], pt: ['comentar'], de: ['kommentieren'], pl: ['komentarz', 'skomentuj'], it: ['commenta'] },
  share: { en: ['share'], es: ['compartir'], fr: ['partager'], pt: ['compartilhar'], de: ['teilen'], pl: ['udostępnij'], it: ['condividi'] },
  comments: { en: ['comment', 'comments'], de: ['kommentar', 'kommentare'], pl: ['komentarz', 'komentarze', 'komentarzy'], it: ['commento', 'commenti'] },
  /** The audience under the author: 'Public', 'Öffentlich', 'Publiczne'. */
  audience: { en: ['public'], de: ['öffentlich'], pl: ['publiczne', 'publiczny'], it: ['pubblico'] },
  /** The page's Reviews tab heading ('Reviews', 'Bewertungen', 'Opinie'), with 'recommend'. */
  recommend: { en: ['recommend'], de: ['empfehlen', 'empfehlungen'], pl: ['polecasz', 'polecenia', 'polecają'] },
  reviewCounts: { en: ['reviews'], de: ['bewertungen'], pl: ['opinii', 'opinie', 'recenzji'], it: ['recensioni'] },
} as const satisfies ReviewProfile & Record<string, unknown>;

/**
 * Review apps whose reviews we do not reward, by their name in the top bar and the labels only they
 * show: Tripadvisor's 'Date of visit: October 2026' under a review.
 */
export const OTHER_REVIEW_APPS: Readonly<Record<string, { names: readonly string[]; labels: Phrases }>> = {
  Tripadvisor: {
    names: ['tripadvisor'],
    // ... and the line under the reviewer's name: 'wrote a review · Nov 2026'.
    labels: {
      en: ['date of visit', 'wrote a review'],
      es: ['fecha de la visita', 'escribió una opinión'],
      fr: ['date de la visite', 'a écrit un avis'],
      pt: ['data da visita', 'escreveu uma avaliação'],
      de: ['datum des besuchs', 'hat eine bewertung geschrieben'],
      pl: ['data wizyty', 'napisał(a) opinię', 'napisał opinię', 'napisała opinię'],
      it: ['data della visita', 'ha scritto una recensione'],
    },
  },
  Trustpilot: { names: ['trustpilot'], labels: { en: ['date of experience'], de: ['datum der erfahrung'], pl: ['data doświadczenia'] } },
};

export const REVIEW_PROFILES: Readonly<Record<ReviewPlatform, ReviewProfile>> = { google: GOOGLE, yelp: YELP, facebook: FACEBOOK_REVIEWS };

/**
 * A reviewer's own profile heading on Google (Contributions) or their reviews count under the name
 * ('Local Guide · 124 reviews', '34 Rezensionen').
 */
export const CONTRIBUTIONS: Phrases = { en: ['contributions'], es: ['contribuciones'], fr: ['contributions'], pt: ['contribuições'], de: ['beiträge'], pl: ['wkład'], it: ['contributi'] };

// ---------------------------------------------------------------------------------------------
// Social platforms

/**
 * Profile words every app shares (the counters, tabs and Message button): they say 'a profile',
 * not which app. English ones count per app in the judge (each app's own set); these are the
 * other languages'.
 */
export const PROFILE_WORDS: Phrases = {
  es: ['seguidores', 'seguidos', 'siguiendo', 'publicaciones', 'mensaje'],
  fr: ['abonnés', 'abonnements', 'suivi', 'suivis', 'suivie', 'suivies', 'suivi(e)s', 'suivi(e)', 'publications'],
  pt: ['seguidores', 'seguidos', 'seguindo', 'publicações', 'mensagem'],
  // Instagram 'Beiträge  Follower  Gefolgt', X 'Folge ich  Follower', TikTok 'Gefolgt  Follower  Likes', 'Nachricht'.
  de: ['beiträge', 'follower', 'gefolgt', 'folge ich', 'nachricht', 'abonnenten'],
  // Instagram 'posty  obserwujących  obserwowani', X 'Obserwowani  Obserwujący', TikTok 'Polubienia', 'Wiadomość'.
  pl: ['posty', 'postów', 'obserwujących', 'obserwujacych', 'obserwujący', 'obserwowani', 'obserwowanych', 'wiadomość', 'polubienia'],
  // Instagram 'post  follower  seguiti', 'Messaggio'.
  it: ['follower', 'seguiti', 'messaggio'],
};

/** Counter words of a profile (a follow word beside them is a label, not the button). */
export const COUNTER_WORDS: Phrases = {
  en: ['followers', 'follower', 'posts', 'likes', 'followed'],
  es: ['seguidores', 'publicaciones'],
  fr: ['abonnés', 'abonnées', 'publications'],
  pt: ['seguidores', 'publicações', 'curtidas'],
  de: ['follower', 'beiträge', 'abonnenten'],
  pl: ['obserwujących', 'obserwujacych', 'obserwujący', 'posty', 'postów', 'polubienia', 'polubień'],
  it: ['follower', 'seguiti'],
};

export type SocialProfile = {
  /** Button labels that mean "you follow this account" (single folded words or two-word phrases). */
  following: Phrases;
  /** Button labels that mean "you don't follow yet": Follow, Follow back, Requested. */
  notFollowing: Phrases;
};

/** The follow button's "you follow" labels shared by Instagram, X and Facebook in es/fr/pt. */
const FOLLOWING_ES_FR_PT: Phrases = { es: ['siguiendo'], fr: ['abonné', 'abonnée', 'suivi', 'suivie'], pt: ['seguindo'] };

/** Follow, Follow back, Requested ('Folgen', 'Zurückfolgen', 'Angefragt'; 'Obserwuj', 'Wysłano prośbę'). */
export const NOT_FOLLOWING: Phrases = {
  en: ['follow', 'requested'],
  es: ['seguir', 'solicitado'],
  fr: ['suivre', "s'abonner", 'demandé'],
  pt: ['seguir', 'solicitado'],
  de: ['folgen', 'zurückfolgen', 'angefragt', 'abonnieren'],
  pl: ['obserwuj', 'poproszono', 'wysłano'],
  // Instagram 'Segui', 'Segui anche tu' (follow back), 'Richiesta inviata'; TikTok 'Ricambia' (follow back).
  it: ['segui', 'segui anche tu', 'ricambia', 'richiesta inviata', 'richiesto'],
};

export const SOCIAL_PROFILES: Readonly<Record<SocialPlatform, SocialProfile>> = {
  // Instagram's button on a followed profile: 'Following ⌄', 'Siguiendo', 'Abonné(e)', 'Seguindo',
  // German 'Gefolgt', Polish 'Obserwujesz'.
  instagram: { following: { en: ['following'], ...FOLLOWING_ES_FR_PT, de: ['gefolgt', 'abonniert'], pl: ['obserwujesz', 'obserwowanie'], it: ['segui già'] }, notFollowing: NOT_FOLLOWING },
  // X: 'Following', German 'Folge ich', Polish 'Obserwujesz'.
  x: { following: { en: ['following'], ...FOLLOWING_ES_FR_PT, de: ['folge ich'], pl: ['obserwujesz'], it: ['segui già'] }, notFollowing: NOT_FOLLOWING },
  // TikTok: 'Following' or 'Friends' (followed back), or only 'Message' and a person icon; German
  // 'Gefolgt' / 'Freunde', Polish 'Obserwujesz' / 'Znajomi'.
  tiktok: {
    following: { en: ['following', 'friends'], es: ['siguiendo', 'amigos'], fr: ['abonné', 'abonnée', 'amis'], pt: ['seguindo', 'amigos'], de: ['gefolgt', 'folge ich', 'freunde'], pl: ['obserwujesz', 'znajomi'], it: ['segui già', 'amici'] },
    notFollowing: NOT_FOLLOWING,
  },
  // Facebook page: 'Following' or 'Liked' ('Suivi(e)', OCR 'Suivile)'); German 'Abonniert' /
  // 'Gefällt dir', Polish 'Obserwujesz' / 'Lubisz to'.
  facebook: {
    // A liked page: 'Liked', 'Te gusta', 'Vous aimez', 'Curtido', 'Gefällt dir', 'Polubione' / 'Lubisz to', 'Ti piace'.
    following: {
      en: ['following', 'liked'],
      es: ['siguiendo', 'te gusta'],
      fr: ['abonné', 'abonnée', 'suivi', 'suivie', 'suivile', 'vous aimez'],
      pt: ['seguindo', 'curtido'],
      de: ['abonniert', 'gefällt dir'],
      pl: ['obserwujesz', 'lubisz to', 'polubione'],
      it: ['segui già', 'ti piace'],
    },
    // ... and the page's Like button: 'Like', 'Me gusta', "J'aime", 'Curtir', 'Gefällt mir', 'Lubię to', 'Mi piace'.
    notFollowing: {
      ...NOT_FOLLOWING,
      en: ['follow', 'requested', 'like'],
      es: [...(NOT_FOLLOWING.es ?? []), 'me gusta'],
      fr: [...(NOT_FOLLOWING.fr ?? []), "j'aime"],
      pt: [...(NOT_FOLLOWING.pt ?? []), 'curtir'],
      de: [...(NOT_FOLLOWING.de ?? []), 'gefällt mir'],
      pl: [...(NOT_FOLLOWING.pl ?? []), 'lubię to'],
      it: [...(NOT_FOLLOWING.it ?? []), 'mi piace'],
    },
  },
};

/** The Message button beside a TikTok profile's followed-person icon. */
export const MESSAGE: Phrases = { en: ['message'], es: ['mensaje'], pt: ['mensagem'], fr: ['message'], de: ['nachricht', 'nachricht senden'], pl: ['wiadomość', 'wyślij wiadomość'], it: ['messaggio', 'invia messaggio'] };

/** Headings of suggestion lists: every line after one shows other accounts with their own buttons. */
export const SUGGESTIONS: Phrases = {
  en: ['suggested for you', 'suggested accounts', 'people you may know', 'similar accounts', 'discover people', 'who to follow', 'you might like', 'related accounts'],
  es: ['sugerencias para ti', 'cuentas sugeridas', 'personas que quizás conozcas'],
  fr: ['suggestions pour vous', 'comptes suggérés', 'vous connaissez peut-être'],
  pt: ['sugestões para você', 'contas sugeridas', 'pessoas que talvez você conheça'],
  de: ['vorschläge für dich', 'vorgeschlagen für dich', 'personen, die du kennen könntest', 'wem folgen', 'ähnliche konten'],
  pl: ['propozycje dla ciebie', 'sugerowane dla ciebie', 'osoby, które możesz znać', 'kogo obserwować', 'podobne konta'],
  it: ['suggeriti per te', 'account suggeriti', 'persone che potresti conoscere', 'chi seguire'],
};

/** A profile's following list: its title and its tabs ('Following', 'Gefolgt', 'Obserwowani'). */
export const FOLLOWING_LIST: Phrases = { en: ['people you follow', 'following list'] };

/**
 * The sort line over Instagram's own Following list ('Sorted by Default', 'Ordinati per:
 * predefinito', 'Sortiert nach: Standard'). X's and TikTok's lists have none.
 */
export const FOLLOWING_SORTED_BY: Phrases = {
  en: ['sorted by', 'sort by'],
  es: ['ordenado por', 'ordenar por'],
  fr: ['trié par', 'trier par'],
  pt: ['ordenado por', 'classificar por', 'ordenar por'],
  de: ['sortiert nach'],
  pl: ['sortuj według', 'posortowane według', 'sortowanie'],
  it: ['ordinati per', 'ordina per'],
};

/** Facebook's check-in before a place's name: 'is at', 'ist in', 'jest w'. */
export const CHECK_IN: Phrases = {
  en: ['is at', 'was at'],
  es: ['está en', 'estaba en'],
  fr: ['est à', 'était à'],
  pt: ['está em', 'estava em'],
  de: ['ist in', 'ist bei', 'ist hier', 'war in', 'war bei', 'ist im', 'war im'],
  pl: ['jest w', 'był w', 'była w', 'jest we'],
  it: ['si trova presso', 'si trova a', 'è presso', 'era presso'],
};

/** Words before a place's name ('at'; not 'with', which names company as often as a place). */
export const PLACE_WORDS: Phrases = { en: ['at'], es: ['en'], fr: ['chez', 'au'], pt: ['em', 'no', 'na'], de: ['bei'] };

/** X's line over a reply: 'Replying to @name' ('Antwort an', 'W odpowiedzi do'): the handles after it are replied to, not the author. */
export const REPLYING_TO: Phrases = {
  en: ['replying to'],
  es: ['en respuesta a'],
  fr: ['en réponse à'],
  pt: ['em resposta a', 'respondendo a'],
  de: ['antwort an'],
  pl: ['w odpowiedzi do', 'odpowiedź do'],
  it: ['in risposta a'],
};

/** Instagram's line under a profile's bio: 'Followed by ana and 12 others'. */
export const FOLLOWED_BY: Phrases = {
  en: ['followed by'],
  es: ['seguido por'],
  fr: ['suivi par', 'suivi(e) par'],
  pt: ['seguido(a) por', 'seguido por'],
  de: ['gefolgt von'],
  // 'Obserwowany(-a) przez'
  pl: ['obserwowany przez', 'obserwowana przez', 'obserwowany(-a) przez'],
  it: ['seguito da', 'seguita da'],
};

/**
 * The word that closes a finished sheet ('X  Done' over Google's "Review posted" confirmation,
 * 'X  Fertig', 'X  Concluído'): a close mark before it is not a composer's title bar.
 */
export const DONE: Phrases = {
  en: ['done'],
  es: ['listo', 'hecho'],
  fr: ['terminé', 'ok'],
  pt: ['concluído', 'concluir', 'pronto'],
  de: ['fertig'],
  pl: ['gotowe'],
  it: ['fatto', 'fine'],
};

/**
 * A post being written: the composer's title on its top bar ('New post', 'Create post'; TikTok's
 * post screen says 'Post'; German 'Neuer Beitrag', Polish 'Nowy post').
 */
export const SOCIAL_COMPOSER_TITLES: Phrases = {
  en: ['new post', 'create post', 'new reel', 'new story'],
  es: ['nueva publicación', 'crear publicación'],
  fr: ['nouvelle publication', 'créer une publication'],
  pt: ['nova publicação', 'criar publicação'],
  de: ['neuer beitrag', 'beitrag erstellen'],
  pl: ['nowy post', 'utwórz post', 'nowa publikacja'],
  it: ['nuovo post', 'crea post'],
};

/**
 * ... and its option rows ('Tag people', 'Add location', 'Everyone can reply', "What's on your
 * mind?"; TikTok's 'Everyone can view this post'). A posted post never shows them.
 */
export const SOCIAL_COMPOSER_OPTIONS: Phrases = {
  en: ['tag people', 'add location', 'write a caption', 'everyone can reply', "what's on your mind", 'add music', 'everyone can view this post', 'who can watch this video'],
  es: ['etiquetar personas', 'agregar ubicación'],
  fr: ['identifier des personnes', 'ajouter un lieu'],
  pt: ['marcar pessoas', 'adicionar localização'],
  de: ['personen markieren', 'ort hinzufügen', 'bildunterschrift schreiben', 'jeder kann antworten', 'was machst du gerade', 'jeder kann diesen beitrag ansehen'],
  pl: ['oznacz osoby', 'dodaj lokalizację', 'napisz podpis', 'każdy może odpowiedzieć', 'co słychać', 'każdy może wyświetlić ten post'],
  it: ['tagga persone', 'aggiungi luogo', 'scrivi una didascalia', 'a cosa stai pensando'],
};
