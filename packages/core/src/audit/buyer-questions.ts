// The audit's buyer questions (`productFanout`): discovery questions a buyer in the category would ask an
// assistant, which never name the brand. They come from fixed English and Spanish templates rather than
// from a model: free, instant and reproducible, so two audits of the same input ask the same questions and
// their scores can be compared (docs/methodology.md, "The audit: buyer questions").

import type { CrawlReport } from '../crawl/crawl-report.js';
import type { Vertical } from '../crawl/vertical.js';
import { createBrandMatcher, normalizeBrandKey } from '../extraction/index.js';
import { blindListCategoryPhrase, normalizeWhitespace, promptMentionsBrand, type PromptLanguage } from '../measurements/prompts.js';
import { englishCategoryForms, type CategoryForms } from './category-grammar.js';
import { domainName, websiteDomain } from './website-domain.js';

/** Fewer questions than this say too little about a category to score it. */
export const MIN_BUYER_QUESTIONS = 6;
/** More than this multiplies the cost (questions × samples × providers) for little extra information. */
export const MAX_BUYER_QUESTIONS = 10;
/** At most this many questions use a segment read from the site, so the site cannot steer the whole audit. */
const MAX_CRAWL_SEGMENTS = 2;

export interface BuyerQuestionsInput {
  brand: string;
  category: string;
  location?: string | undefined;
  language: PromptLanguage;
  vertical: Vertical;
  crawl?: CrawlReport | undefined;
  /** The brand's website: its domain is kept out of the questions too. */
  website?: string | undefined;
}

export interface BuyerQuestions {
  /** 6 to 10 questions, or none (then `reasonMissing` says why). */
  questions: string[];
  /** The category as said to the models, merged with the location ("CRM software in Madrid"). */
  categoryLocalized: string;
  /** Present only when there are no questions. */
  reasonMissing?: string;
}

/** What a template may use: the category as asked (with the location), the bare category, the market and a buyer segment. */
interface TemplateContext {
  topic: string;
  category: string;
  location: string | undefined;
  segment: string;
  /** The topic's grammatical forms in English ("dentists in Madrid", "a dentist in Madrid"); the topic itself in Spanish. */
  topicForms: CategoryForms;
  /** The bare category's forms. */
  categoryForms: CategoryForms;
}

type Template = (context: TemplateContext) => string | null;

interface LanguageTemplates {
  bestOverall: Template;
  segment: Template;
  alternatives: Template;
  budget: Template;
  criteria: Template;
  leaders: Template;
  gettingStarted: Template;
  local: Template;
  vertical: Readonly<Record<Vertical, readonly Template[]>>;
  /** Buyer segments to ask about when the site names none. */
  defaultSegment: Readonly<Record<Vertical, string>>;
  locationJoin: string;
}

// Each English template takes the category's grammatical form it needs (category-grammar.ts: "which dentists",
// "choosing a dentist", "which CRM software"), and each is an open question (no "list", no number, no brand in quotes): the shape
// of what buyers type, and what assistants answer with the names they would recommend.
const TEMPLATES: Readonly<Record<PromptLanguage, LanguageTemplates>> = {
  en: {
    bestOverall: ({ topicForms }) => `Which ${topicForms.many} would you recommend?`,
    segment: ({ topicForms, segment }) =>
      topicForms.mass ? `What is the best ${topicForms.many} for ${segment}?` : `What are the best ${topicForms.many} for ${segment}?`,
    alternatives: ({ topicForms }) => `What are good alternatives to the most popular ${topicForms.many}?`,
    budget: ({ topicForms }) => `On a tight budget, which ${topicForms.many} would you choose?`,
    criteria: ({ topicForms }) => `What should I look for when choosing ${topicForms.choosing}, and which options stand out?`,
    leaders: ({ topicForms }) => `Which ${topicForms.many} ${topicForms.mass ? 'is' : 'are'} the most trusted today?`,
    gettingStarted: ({ topicForms }) => `For a first-timer, which ${topicForms.many} would you pick?`,
    local: ({ categoryForms, location }) =>
      location === undefined ? null : `I'm in ${location}. Which ${categoryForms.many} do locals recommend most?`,
    vertical: {
      saas: [
        ({ topicForms }) => `Which ${topicForms.many} would you choose for the best integrations and a free trial?`,
        ({ topicForms }) => `What does a plan usually cost for ${topicForms.choosing}, and which options are worth paying for?`,
      ],
      ecommerce: [
        ({ topicForms }) => `Where can I buy ${topicForms.many} online with fast delivery and easy returns?`,
        ({ topicForms }) => `Which brands of ${topicForms.many} have the best customer reviews?`,
      ],
      local_business: [
        ({ categoryForms, location }) => `Can you recommend ${categoryForms.one} ${location === undefined ? 'near me' : `near ${location}`} that's well reviewed and open now?`,
        ({ categoryForms, location }) => `Where should I go for ${categoryForms.choosing} ${location === undefined ? 'near me' : `in ${location}`}?`,
      ],
      finance: [({ topicForms }) => `Which ${topicForms.many} would you trust most, with low fees?`],
      travel: [({ topicForms }) => `Which ${topicForms.many} would you pick for a family trip on a budget?`],
      media: [({ topicForms }) => `Which ${topicForms.many} would you trust most to stay informed?`],
      other: [],
    },
    defaultSegment: {
      saas: 'small businesses',
      ecommerce: 'beginners',
      local_business: 'families',
      finance: 'first-time customers',
      travel: 'families',
      media: 'busy professionals',
      other: 'beginners',
    },
    locationJoin: 'in',
  },
  es: {
    bestOverall: ({ topic }) => `¿Qué ${topic} me recomendarías?`,
    segment: ({ topic, segment }) => `¿Cuáles son las mejores opciones de ${topic} para ${segment}?`,
    alternatives: ({ topic }) => `¿Qué alternativas hay a las opciones más populares de ${topic}?`,
    budget: ({ topic }) => `¿Qué opción de ${topic} tiene la mejor relación calidad-precio?`,
    criteria: ({ topic }) => `¿Qué debo tener en cuenta al elegir ${topic} y qué opciones destacan?`,
    leaders: ({ topic }) => `¿Quiénes son los referentes en ${topic} hoy en día?`,
    gettingStarted: ({ topic }) => `¿Cuál es la opción de ${topic} más fácil para empezar?`,
    local: ({ category, location }) => (location === undefined ? null : `Estoy en ${location}. ¿Qué ${category} recomienda más la gente de aquí?`),
    vertical: {
      saas: [
        ({ topic }) => `¿Qué opción de ${topic} tiene las mejores integraciones y una prueba gratuita?`,
        ({ topic }) => `¿Cuánto suele costar un plan de ${topic} y qué opciones merecen la pena?`,
      ],
      ecommerce: [
        ({ topic }) => `¿Dónde puedo comprar ${topic} online con envío rápido y devoluciones fáciles?`,
        ({ topic }) => `¿Qué marcas de ${topic} tienen las mejores opiniones de clientes?`,
      ],
      local_business: [
        ({ category, location }) => `¿Qué opción de ${category} bien valorada hay ${location === undefined ? 'cerca de mí' : `cerca de ${location}`} abierta ahora?`,
        ({ category, location }) => `¿A qué ${category} debería ir ${location === undefined ? 'cerca de mí' : `en ${location}`}?`,
      ],
      finance: [({ topic }) => `¿Qué opciones de ${topic} son las más fiables y con comisiones bajas?`],
      travel: [({ topic }) => `¿Qué opciones de ${topic} ofrecen la mejor relación calidad-precio para un viaje en familia?`],
      media: [({ topic }) => `¿Qué fuentes de ${topic} son las más fiables para seguir?`],
      other: [],
    },
    defaultSegment: {
      saas: 'pequeñas empresas',
      ecommerce: 'principiantes',
      local_business: 'familias',
      finance: 'quienes contratan por primera vez',
      travel: 'familias',
      media: 'profesionales con poco tiempo',
      other: 'principiantes',
    },
    locationJoin: 'en',
  },
};

// Words that make a category phrase a request about the brand rather than a category once the brand is
// cut out ("alternatives to Acme" -> "alternatives"), and superlatives the templates already say.
const REQUEST_WORDS = new Set([
  'alternative', 'alternatives', 'competitor', 'competitors', 'similar', 'like', 'best', 'top', 'leading', 'vs', 'versus',
  'alternativa', 'alternativas', 'competidor', 'competidores', 'similares', 'como', 'mejor', 'mejores',
]);
// Connectors left dangling once a request word goes ("best of" -> "of"); only stripped then, so "vitamin A" keeps its A.
const CONNECTOR_WORDS = new Set(['to', 'for', 'of', 'the', 'a', 'an', 'and', 'or', 'de', 'del', 'para', 'la', 'el', 'los', 'las', 'y', 'o']);

/** Writes 6 to 10 buyer questions for the category, in the measurement language, none naming the brand. */
export function generateBuyerQuestions(input: BuyerQuestionsInput): BuyerQuestions {
  const templates = TEMPLATES[input.language];
  const brand = normalizeWhitespace(input.brand);
  const mentionsBrand = brandGuard(brand, input.website);
  const rawCategory = normalizeWhitespace(input.category);
  const rawLocation = input.location === undefined ? undefined : normalizeWhitespace(input.location);
  // A location that names the brand would give it away in every local question; the market is then left out.
  const location = rawLocation === undefined || rawLocation === '' || mentionsBrand(rawLocation) ? undefined : rawLocation;
  const category = brandlessCategory(rawCategory, brand);
  const categoryLocalized = localize(category ?? rawCategory, location, templates.locationJoin);

  if (category === null) {
    return {
      questions: [],
      categoryLocalized,
      reasonMissing:
        rawCategory === ''
          ? 'The category is empty, so there is nothing to ask buyers about.'
          : `Once the brand's own name is taken out, the category "${rawCategory}" says nothing a buyer could ask about without naming the brand.`,
    };
  }

  const segments = crawlSegments(input.crawl, input.language, category, mentionsBrand);
  const forms = (phrase: string): CategoryForms =>
    input.language === 'en' ? englishCategoryForms(phrase) : { asWritten: phrase, many: phrase, choosing: phrase, one: phrase, mass: false };
  const topicForms = forms(categoryLocalized);
  const categoryForms = forms(category);
  const context = (segment: string): TemplateContext => ({ topic: categoryLocalized, category, location, segment, topicForms, categoryForms });
  const defaultSegment = templates.defaultSegment[input.vertical];
  const [verticalFirst, verticalSecond] = templates.vertical[input.vertical];
  // In order of priority: when more than 10 remain, the last ones are dropped, and every intent before
  // them (best overall, a segment, alternatives, budget, criteria, local, the vertical's own) is kept.
  const candidates: Array<string | null> = [
    templates.bestOverall(context(defaultSegment)),
    templates.segment(context(segments[0] ?? defaultSegment)),
    templates.alternatives(context(defaultSegment)),
    templates.budget(context(defaultSegment)),
    templates.criteria(context(defaultSegment)),
    templates.local(context(defaultSegment)),
    verticalFirst?.(context(defaultSegment)) ?? null,
    verticalSecond?.(context(defaultSegment)) ?? null,
    ...segments.slice(1).map((segment) => templates.segment(context(segment))),
    templates.leaders(context(defaultSegment)),
    templates.gettingStarted(context(defaultSegment)),
    segments.length > 0 ? templates.segment(context(defaultSegment)) : null,
  ];

  const seen = new Set<string>();
  const questions: string[] = [];
  for (const candidate of candidates) {
    if (candidate === null) continue;
    const question = normalizeWhitespace(candidate);
    const key = normalizeBrandKey(question);
    if (seen.has(key) || mentionsBrand(question)) continue;
    seen.add(key);
    questions.push(question);
    if (questions.length === MAX_BUYER_QUESTIONS) break;
  }
  if (questions.length < MIN_BUYER_QUESTIONS) {
    return {
      questions: [],
      categoryLocalized,
      reasonMissing: `Only ${questions.length} buyer question${questions.length === 1 ? '' : 's'} could be written for "${categoryLocalized}" without naming the brand; at least ${MIN_BUYER_QUESTIONS} are needed.`,
    };
  }
  return { questions, categoryLocalized };
}

/**
 * Whether a text names the brand in any written form: the matcher with the everyday-word caution off (any
 * use of the word gives the brand away), its domain forms, the website's domain, and normalised words.
 */
function brandGuard(brand: string, website: string | undefined): (text: string) => boolean {
  const domain = websiteDomain(website);
  const matcher = createBrandMatcher(brand, { commonWord: false, ...(domain === undefined ? {} : { domain }) });
  // The domain's name on its own ("getacme" of getacme.io) gives the brand away as much as the domain does.
  const name = domainName(domain);
  const nameMatcher = name === undefined ? null : createBrandMatcher(name, { commonWord: false });
  return (text) =>
    (brand !== '' && (matcher.mentions(text) || promptMentionsBrand(text, brand))) ||
    (domain !== undefined && text.toLowerCase().includes(domain)) ||
    (nameMatcher?.mentions(text) ?? false);
}

/** The category with the brand cut out and request words ("alternatives to", "best") trimmed; null when nothing is left. */
export function brandlessCategory(category: string, brand: string): string | null {
  const phrase = brand === '' ? (category === '' ? null : category) : blindListCategoryPhrase(category, brand);
  if (phrase === null) return null;
  const words = phrase.split(' ');
  const isRequestWord = (word: string | undefined): boolean => REQUEST_WORDS.has(foldedWord(word ?? ''));
  const isEdgeWord = (word: string | undefined): boolean => isRequestWord(word) || CONNECTOR_WORDS.has(foldedWord(word ?? ''));
  if (isRequestWord(words[0])) while (words.length > 0 && isEdgeWord(words[0])) words.shift();
  if (isRequestWord(words[words.length - 1])) while (words.length > 0 && isEdgeWord(words[words.length - 1])) words.pop();
  const trimmed = words.join(' ');
  return /[\p{L}\p{N}]/u.test(trimmed) ? trimmed : null;
}

/** "CRM software" + "Madrid" → "CRM software in Madrid"; unchanged when the category already names the place. */
function localize(category: string, location: string | undefined, join: string): string {
  if (location === undefined || category === '') return category;
  const categoryKey = ` ${normalizeBrandKey(category)} `;
  if (categoryKey.includes(` ${normalizeBrandKey(location)} `)) return category;
  return `${category} ${join} ${location}`;
}

function foldedWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

// Reading "for small agencies" / "para pymes" out of the site's own headings gives a buyer segment in the
// brand's words. These are the words that end a segment, and the leading words stripped from it.
const SEGMENT_INTRODUCER: Readonly<Record<PromptLanguage, string>> = { en: 'for', es: 'para' };
const SEGMENT_STOP_WORDS = new Set([
  'and', 'with', 'that', 'who', 'which', 'to', 'in', 'on', 'at', 'by', 'from', 'of', 'or', 'is', 'are', 'since', 'without', 'like',
  'y', 'con', 'que', 'quien', 'quienes', 'en', 'a', 'de', 'del', 'o', 'desde', 'sin', 'como', 'es', 'son',
]);
const SEGMENT_LEADING_WORDS = new Set(['your', 'the', 'a', 'an', 'our', 'all', 'every', 'any', 'tu', 'tus', 'su', 'sus', 'el', 'la', 'los', 'las', 'un', 'una', 'todo', 'todos', 'todas', 'nuestro', 'nuestros']);
// Segments that say nothing about a buyer ("for free", "for you", "for everyone", "for life").
const EMPTY_SEGMENTS = new Set([
  'free', 'you', 'everyone', 'everybody', 'life', 'less', 'more', 'all', 'us', 'me', 'good', 'real', 'now', 'today', 'sale', 'years', 'ever',
  'gratis', 'ti', 'todos', 'vida', 'menos', 'mas', 'siempre', 'hoy', 'nosotros', 'usted', 'ustedes', 'venta',
]);
const MAX_SEGMENT_WORDS = 4;

/** Buyer segments the site names in its title, description and headings ("for growing teams"), brand-free, deduplicated. */
function crawlSegments(
  crawl: CrawlReport | undefined,
  language: PromptLanguage,
  category: string,
  mentionsBrand: (text: string) => boolean,
): string[] {
  if (crawl === undefined) return [];
  const pages = [crawl.homepage, ...crawl.pages].filter((page) => page !== undefined);
  const texts = pages.flatMap((page) => [page.title, page.description, page.openGraph.description, ...page.h1, ...page.h2.slice(0, 8)]);
  const categoryWords = new Set(category.split(' ').map(foldedWord));
  const segments: string[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    if (text === undefined) continue;
    // A full stop splits only where it ends a sentence, so "getacme.io" stays one word for the brand guard.
    for (const clause of text.split(/\.(?=\s|$)|[,;:!?¡¿|()•·–—\n]|\s-\s/u)) {
      const segment = segmentOf(clause, SEGMENT_INTRODUCER[language]);
      if (segment === null || mentionsBrand(segment)) continue;
      const words = segment.split(' ').map(foldedWord);
      // "CRM for CRM teams" repeats the category rather than naming who buys it.
      if (words.some((word) => categoryWords.has(word))) continue;
      const key = normalizeBrandKey(segment);
      if (seen.has(key)) continue;
      seen.add(key);
      segments.push(segment);
      if (segments.length === MAX_CRAWL_SEGMENTS) return segments;
    }
  }
  return segments;
}

/** The words after "for"/"para" up to the next connector, or null when they name no buyer. */
function segmentOf(clause: string, introducer: string): string | null {
  const words = normalizeWhitespace(clause).split(' ');
  const start = words.findIndex((word) => foldedWord(word) === introducer);
  if (start === -1) return null;
  const taken: string[] = [];
  for (const word of words.slice(start + 1)) {
    if (SEGMENT_STOP_WORDS.has(foldedWord(word))) break;
    taken.push(word);
  }
  let stripped = false;
  while (taken.length > 0 && SEGMENT_LEADING_WORDS.has(foldedWord(taken[0] ?? ''))) {
    taken.shift();
    stripped = true;
  }
  if (taken.length === 0 || taken.length > MAX_SEGMENT_WORDS) return null;
  if (taken.some((word) => /\p{N}/u.test(word) || !/\p{L}/u.test(word))) return null;
  if (taken.every((word) => EMPTY_SEGMENTS.has(foldedWord(word)))) return null;
  // "for your business" without its possessive reads "for business": a lone singular noun needs its article.
  if (stripped && taken.length === 1 && !/s$/iu.test(taken[0] ?? '')) return null;
  const segment = taken.join(' ').replace(/[^\p{L}\p{N}]+$/u, '');
  // Headings are often Title Case ("CRM For Small Agencies"); in a sentence the segment reads lower case.
  // Mixed case is kept as written, so a name inside it ("for Shopify stores") keeps its capital.
  const titleCase = words.filter((word) => /\p{L}{4,}/u.test(word)).every((word) => /^\p{Lu}/u.test(word));
  return titleCase ? segment.split(' ').map((word) => (/^\p{Lu}\p{Ll}*$/u.test(word) ? word.toLowerCase() : word)).join(' ') : segment;
}
