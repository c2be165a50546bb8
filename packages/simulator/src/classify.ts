import type { PromptKind, PromptLanguage } from './types.js';
import { detectLanguage } from './language.js';
import { findBrand, findBrandMentioned, matchCategory } from './lookup.js';
import { foldText } from './text.js';
import type { WorldCategory } from './world.js';

/** What the simulator read from a prompt. */
export interface PromptClassification {
  kind: PromptKind;
  language: PromptLanguage;
  /** The brand the prompt asks about (recognition, recommendation), as written. */
  brand?: string;
  /** The category as the prompt words it ("CRM software", "software de contabilidad"). */
  category?: string;
  /** The world category the prompt matched, if any ("crm", "accounting"). */
  categoryId?: string;
  /** How many names a blind list asks for (default 8). */
  listSize?: number;
  /** Who the buyer is, when the prompt says ("a small agency", "pymes en México"). */
  audience?: string;
}

const DEFAULT_LIST_SIZE = 8;
const MAX_LIST_SIZE = 20;

// JavaScript's \b only knows ASCII letters, so "Recomendarías" would end in a word "as";
// every pattern here swaps \b for a boundary that knows accented letters.
const WORD_BOUNDARY = String.raw`(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))`;

/** Builds a case-insensitive Unicode regex whose \b understands accented letters. */
function pattern(source: string | RegExp, flags = 'iu'): RegExp {
  const text = typeof source === 'string' ? source : source.source;
  return new RegExp(text.replaceAll(String.raw`\b`, WORD_BOUNDARY), flags);
}

// Where a subject (a brand after "do you know …") ends: punctuation, a sentence-ending full stop
// (not the one in "monday.com"), or a connective that starts the next clause.
const END = String.raw`(?=\s*(?:[?!,;:()¿¡]|\.(?:\s|$))|\s+(?:and|or|if|for|as|to|in|over|when|y|o|si|para|como|en|cuando)\b|$)`;

function subject(source: string): RegExp {
  return pattern(source.replace('SUBJECT', `(.+?)${END}`));
}

const RECOMMENDATION_PATTERNS: readonly RegExp[] = [
  subject(String.raw`\b(?:would|do|could|can|will)\s+you\s+(?:personally\s+|still\s+)?recommend\s+(?:using\s+|buying\s+)?SUBJECT`),
  subject(String.raw`\bshould\s+(?:i|we)\s+(?:use|buy|choose|pick|get|try|go\s+with|sign\s+up\s+for|switch\s+to)\s+SUBJECT`),
  pattern(/(?:^|[.!?]\s*)is\s+(.+?)\s+(?:a\s+|an\s+)?(?:good|great|solid|reasonable|decent|recommended|right|smart|wise|safe)\b/),
  pattern(/(?:^|[.!?]\s*)is\s+(.+?)\s+worth\b/),
  subject(String.raw`\b(?:me\s+|nos\s+)?(?:recomendar[ií]as|recomiendas|recomendar[ií]a|aconsejar[ií]as)\s+(?:usar\s+|utilizar\s+|contratar\s+|comprar\s+|a\s+)?SUBJECT`),
  subject(String.raw`\bdeber[ií]a(?:mos)?\s+(?:usar|comprar|elegir|contratar|probar|escoger)\s+SUBJECT`),
  pattern(/(?:^|[.!?]\s*)¿?\s*(?:es|ser[ií]a)\s+(.+?)\s+(?:una?\s+)?(?:buen[ao]?|recomendable|adecuad[ao]|confiable|fiable)\b/),
  subject(String.raw`(?:^|[.!?]\s*)¿?\s*vale\s+la\s+pena\s+(?:usar\s+|contratar\s+|comprar\s+)?SUBJECT`),
];

const RECOGNITION_PATTERNS: readonly RegExp[] = [
  subject(String.raw`\b(?:do|did)\s+you\s+(?:happen\s+to\s+)?(?:know|recogni[sz]e)\s+(?:of\s+|about\s+)?SUBJECT`),
  subject(String.raw`\bhave\s+you\s+(?:ever\s+)?heard\s+(?:of|about)\s+SUBJECT`),
  subject(String.raw`\bare\s+you\s+(?:familiar|acquainted)\s+with\s+SUBJECT`),
  subject(String.raw`\bwhat\s+do\s+you\s+know\s+about\s+SUBJECT`),
  subject(String.raw`\btell\s+me\s+(?:about|what\s+you\s+know\s+about)\s+SUBJECT`),
  subject(String.raw`\b(?:conoces|conoce|conoc[eé]s|reconoces)\s+(?:a\s+)?SUBJECT`),
  subject(String.raw`\bhas\s+o[ií]do\s+hablar\s+(?:de|sobre)\s+SUBJECT`),
  subject(String.raw`\best[aá]s\s+familiarizad[oa]\s+con\s+SUBJECT`),
  subject(String.raw`\bqu[eé]\s+sabes\s+(?:de|sobre|acerca\s+de)\s+SUBJECT`),
  subject(String.raw`\bh[aá]blame\s+(?:de|sobre|acerca\s+de)\s+SUBJECT`),
  subject(String.raw`\bsabes\s+qu[eé]\s+es\s+SUBJECT`),
];

// "What is X?" also opens buyer questions ("What is the best CRM …?"), so its subject must look like a name.
const WHAT_IS_PATTERNS: readonly RegExp[] = [
  pattern(/(?:^|[.!?]\s*)(?:what|who)(?:\s+is|'s|’s|\s+are)\s+(.+?)(?:\s+(?:known|used)\s+for)?\s*\?/),
  pattern(/(?:^|[.!?]\s*)¿?\s*(?:qu[eé]|qui[eé]n(?:es)?)\s+(?:es|son)\s+(.+?)\s*\?/),
];

// An answer format offering yes / no / unsure: the shape of a recommendation question.
const YES_NO_UNSURE =
  pattern(/\b(?:yes|s[ií])\b[^.?!]{0,30}\bno\b[^.?!]{0,40}(?:\bunsure\b|\bnot\s+sure\b|\bmaybe\b|\bdepends\b|\bno\s+estoy\s+segur[oa]\b|\bincierto\b|\bquiz[aá]s?\b|\btal\s+vez\b|\bdepende\b)/);

const LIST_FORMAT =
  pattern(/\bone\s+(?:name\s+|brand\s+)?per\s+line\b|\bnames?\s+only\b|\bonly\s+(?:the\s+)?(?:brand\s+|company\s+|product\s+)?names\b|\bjust\s+(?:the\s+)?(?:brand\s+)?names\b|\bno\s+(?:descriptions?|explanations?|commentary)\b|\bwithout\s+(?:descriptions?|explanations?)\b|\buna?\s+por\s+l[ií]nea\b|\bs[oó]lo\s+(?:los\s+)?nombres\b|\bsolamente\s+(?:los\s+)?nombres\b|\bsin\s+(?:descripci[oó]n|descripciones|explicaci[oó]n|explicaciones)\b/);
const LIST_VERB =
  pattern(/(?:^|[.!?:¿]\s*|\b(?:please|por\s+favor)\s+)(?:list|name|enumerate|give\s+me|provide|write|share|tell\s+me|rank|enumera|lista|nombra|menciona|dame|dime|escribe|indica|proporciona)\b/);
const LIST_NOUN =
  pattern(/\b(?:brands|companies|products|tools|apps|options|names|services|providers|platforms|vendors|makers|marcas|empresas|productos|herramientas|aplicaciones|opciones|nombres|servicios|proveedores|plataformas)\b/);
const LIST_SUPERLATIVE =
  pattern(/\b(?:top|best|leading|most\s+popular|most\s+recommended|biggest|main|mejores|principales|m[aá]s\s+populares|m[aá]s\s+conocid[ao]s|m[aá]s\s+recomendad[ao]s)\b/);

const TOP_NUMBER = pattern(/\btop\s+\d{1,2}\b/);
const ANY_NUMBER = pattern(/\b\d{1,2}\b/);

const WORD_NUMBERS: Readonly<Record<string, number>> = {
  three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20,
  tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, quince: 15, veinte: 20,
};
const WORD_NUMBER = pattern(String.raw`\b(${Object.keys(WORD_NUMBERS).join('|')})\b`);

// First words that show a subject is a description, not a name ("the best CRM", "un CRM").
const NOT_A_NAME_START = new Set([
  'a', 'an', 'the', 'any', 'some', 'my', 'our', 'your', 'their', 'this', 'that', 'these', 'those', 'it', 'them',
  'best', 'better', 'good', 'great', 'which', 'what', 'how', 'more', 'most', 'me', 'us', 'anything', 'something',
  'un', 'una', 'unos', 'unas', 'el', 'la', 'los', 'las', 'lo', 'algun', 'alguna', 'algunos', 'algunas', 'mi', 'mis',
  'tu', 'tus', 'su', 'sus', 'nuestro', 'nuestra', 'este', 'esta', 'ese', 'esa', 'eso', 'esto', 'mejor', 'mejores',
  'buen', 'buena', 'bueno', 'cual', 'que', 'como', 'mas', 'algo', 'alguien',
]);
// Capitalised words that are category jargon, not names ("CRM software" is not a brand).
const GENERIC_CAPITALS = new Set(['crm', 'vpn', 'erp', 'saas', 'seo', 'app', 'apps', 'ai', 'ia', 'it', 'i', 'api', 'b2b', 'b2c', 'usa', 'uk', 'eu', 'pyme', 'pymes']);

const LABEL_PREFIX = pattern(
  /^(?:(?:the|a)\s+)?(?:brand|company|product|service|app|tool|business|startup|vendor)\s+(?:called\s+|named\s+)?|^(?:(?:la|el|una?)\s+)?(?:marca|empresa|compa[ñn][ií]a|producto|servicio|app|aplicaci[oó]n|herramienta|startup)\s+(?:llamad[ao]\s+|denominad[ao]\s+)?/,
);
const QUOTED = /["“”«»„]\s*([^"“”«»„\n]{1,80}?)\s*["“”«»„]/u;
const SINGLE_QUOTED = /(?:^|[\s(¿])['‘’]([^'‘’\n]{1,80}?)['‘’](?=$|[\s).,!?:;])/u;
// Case-sensitive on purpose: after the label, only capitalised words continue the name.
const LABELLED = pattern(
  /\b(?:brand|company|product|marca|empresa|producto)\s+(?:called\s+|named\s+|llamad[ao]\s+)?([\p{L}\p{N}][\p{L}\p{N}&.'’+-]*(?:\s+(?:[\p{Lu}\p{N}][\p{L}\p{N}&.'’+-]*|&))*)/u,
  'u',
);

/** Reads a prompt's kind, language, brand and category with English and Spanish heuristics. */
export function classifyPrompt(prompt: string): PromptClassification {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const language = detectLanguage(text);
  const explicitBrand = quotedName(text) ?? labelledName(text);

  const recommended = firstSubject(text, RECOMMENDATION_PATTERNS, explicitBrand);
  if (recommended) return finish(text, language, 'recommendation', recommended);

  const recognised = firstSubject(text, RECOGNITION_PATTERNS, explicitBrand) ?? whatIsSubject(text, explicitBrand);
  if (recognised) return finish(text, language, 'recognition', recognised);

  if (explicitBrand && YES_NO_UNSURE.test(text)) return finish(text, language, 'recommendation', explicitBrand);

  if (isBlindList(text)) return { ...finish(text, language, 'blind_list'), listSize: listSize(text) };

  return finish(text, language, 'buyer_question');
}

function finish(text: string, language: PromptLanguage, kind: PromptKind, brand?: string): PromptClassification {
  const classification: PromptClassification = { kind, language };
  if (brand) classification.brand = brand;
  // The brand's own name must not decide the category ("Notion" is not a note-taking keyword, but is a hint).
  const withoutBrand = brand ? text.split(brand).join(' ') : text;
  const category = categoryPhrase(withoutBrand, kind);
  if (category) classification.category = category;
  const worldCategory = matchCategory(withoutBrand) ?? (brand ? brandCategory(brand) : undefined);
  if (worldCategory) classification.categoryId = worldCategory.id;
  const audience = audiencePhrase(withoutBrand, language);
  if (audience) classification.audience = audience;
  return classification;
}

/** The world category of a brand named exactly or inside a longer name ("Salesforce CRM"). */
function brandCategory(brand: string): WorldCategory | undefined {
  const known = findBrand(brand) ?? findBrand(findBrandMentioned(brand) ?? '');
  return known?.category;
}

function firstSubject(text: string, patterns: readonly RegExp[], explicitBrand: string | undefined): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    // A quoted or labelled brand is what the question is about, even when the pattern caught more.
    if (explicitBrand && match[0].includes(explicitBrand)) return explicitBrand;
    const name = cleanName(match[1] ?? '');
    if (name) return name;
  }
  return undefined;
}

function whatIsSubject(text: string, explicitBrand: string | undefined): string | undefined {
  for (const pattern of WHAT_IS_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    if (explicitBrand && match[0].includes(explicitBrand)) return explicitBrand;
    const name = cleanName(match[1] ?? '');
    // "What is CRM software?" asks about a category, not a brand.
    if (name && (findBrand(name) || !matchCategory(name))) return name;
  }
  return undefined;
}

function quotedName(text: string): string | undefined {
  const match = QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text);
  const name = match?.[1]?.trim();
  return name && name.split(' ').length <= 6 ? name : undefined;
}

function labelledName(text: string): string | undefined {
  const match = LABELLED.exec(text);
  if (!match?.[1]) return undefined;
  const name = match[1].replace(/[.'’&-]+$/u, '').trim();
  const first = name.split(' ')[0] ?? '';
  // "marca de zapatillas" is no name; a lowercase first word passes only when it looks like one ("iFood").
  const looksLikeName = /^[\p{Lu}\p{N}]/u.test(first) || /[\p{Lu}.]/u.test(first.slice(1)) || findBrand(first) !== undefined;
  if (!looksLikeName || NOT_A_NAME_START.has(foldText(first))) return undefined;
  return name.length > 0 ? name : undefined;
}

/** Turns a captured subject into a brand name, or undefined when it reads like a description. */
function cleanName(raw: string): string | undefined {
  let name = raw.trim();
  const quoted = quotedName(name);
  if (quoted) return quoted;
  name = name.replace(LABEL_PREFIX, '').replace(/^(?:usar|utilizar|comprar|elegir|contratar|using|buying|choosing)\s+/iu, '');
  name = name.replace(/^["'“”«»‘’]+|["'“”«»‘’?!.,;:]+$/gu, '').trim();
  if (!name) return undefined;
  const words = name.split(' ');
  if (words.length > 6) return undefined;
  if (NOT_A_NAME_START.has(foldText(words[0] ?? ''))) return undefined;
  if (findBrand(name)) return name;
  // A name has at least one capitalised word that is not category jargon ("Acme", "Salesforce CRM").
  const hasNameWord = words.some((word) => /^[\p{Lu}\p{N}]/u.test(word) && !GENERIC_CAPITALS.has(foldText(word)));
  if (hasNameWord) return name;
  return findBrandMentioned(name);
}

function isBlindList(text: string): boolean {
  if (LIST_FORMAT.test(text)) return true;
  const hasNumber = ANY_NUMBER.test(text) || WORD_NUMBER.test(text);
  if (LIST_VERB.test(text) && (hasNumber || (LIST_SUPERLATIVE.test(text) && LIST_NOUN.test(text)))) return true;
  // "What are the top 10 CRM brands?" asks for names just the same.
  return TOP_NUMBER.test(text) && LIST_NOUN.test(text);
}

const LIST_SIZE_PATTERNS: readonly RegExp[] = [
  pattern(/\b(?:top|up\s+to|at\s+most|hasta|the|las|los|list|name|enumera|nombra|lista|dame|dime|give\s+me)\s+(\d{1,2})\b/),
  pattern(/\b(\d{1,2})\s+(?:best|top|leading|most|mejores|principales|m[aá]s)\b/),
  ANY_NUMBER,
];

function listSize(text: string): number {
  for (const sizePattern of LIST_SIZE_PATTERNS) {
    const value = Number(sizePattern.exec(text)?.[1]);
    if (value >= 1) return Math.min(value, MAX_LIST_SIZE);
  }
  const word = WORD_NUMBER.exec(text)?.[1];
  const fromWord = word ? WORD_NUMBERS[word.toLowerCase()] : undefined;
  return fromWord ?? DEFAULT_LIST_SIZE;
}

const PHRASE_END = String.raw`(?=\s+(?:for|in|to|that|which|with|under|near|on|available|right\s+now|today|this\s+year|you|para|en|que|con|hoy|este|del\s+mercado)\b|\s*[?!,;:()¿¡]|\.(?:\s|$)|$)`;
const LIST_NOUN_SUFFIX = String.raw`(?:\s+(?:brands?|companies|company|products?|options?|providers?|services?|vendors?|makers?|manufacturers?|names))?`;
const CATEGORY_PATTERNS: readonly RegExp[] = [
  pattern(String.raw`\b(?:recommend|suggest)\s+(?:a|an|some|any)\s+(?:good\s+|great\s+)?(.+?)${LIST_NOUN_SUFFIX}${PHRASE_END}`),
  pattern(String.raw`\b(?:recomiendas|recomendar[ií]as|sugieres)\s+(?:un|una|unos|unas|alg[uú]n|alguna)\s+(?:buen[oa]?\s+)?(.+?)${PHRASE_END}`),
  pattern(String.raw`\b(?:best|top|leading|most\s+popular|good|great|recommended|cheapest|affordable|reliable|popular)\s+(?:\d{1,2}\s+)?(.+?)${LIST_NOUN_SUFFIX}${PHRASE_END}`),
  pattern(String.raw`\b(?:mejor(?:es)?|principales|m[aá]s\s+populares|m[aá]s\s+conocid[ao]s|buen[oa]s?|recomendad[oa]s?)\s+(?:\d{1,2}\s+)?(?:marcas?\s+de\s+|opciones\s+de\s+|empresas\s+de\s+)?(.+?)${PHRASE_END}`),
  pattern(String.raw`\b(?:list|name|enumerate|give\s+me|suggest)\s+(?:the\s+|some\s+|a\s+few\s+|up\s+to\s+)?(?:\d{1,2}\s+)?(.+?)${LIST_NOUN_SUFFIX}${PHRASE_END}`),
  pattern(String.raw`\b(?:enumera|nombra|lista|menciona|dame|dime)\s+(?:hasta\s+)?(?:las\s+|los\s+|unas?\s+)?(?:\d{1,2}\s+)?(?:marcas\s+de\s+|empresas\s+de\s+)?(.+?)${PHRASE_END}`),
];
// Open buyer questions name the category after "which", "choosing", "al elegir", "opciones de"…: read first.
const BUYER_END = String.raw`(?=\s*[?!,;:()¿¡]|\.(?:\s|$)|\s+(?:and|y|hoy|today|that|que)\b|$)`;
const BUYER_CATEGORY_PATTERNS: readonly RegExp[] = [
  pattern(String.raw`\bwhich\s+(?:brands\s+of\s+)?(.+?)\s+(?:would|do|does|are|is|should|have|has|can)\b`),
  pattern(String.raw`\bchoosing\s+(?:an?\s+|the\s+)?(.+?)${BUYER_END}`),
  pattern(String.raw`\bcost\s+for\s+(?:an?\s+)?(.+?)${BUYER_END}`),
  pattern(String.raw`\bgo\s+for\s+(?:an?\s+)?(.+?)${BUYER_END}`),
  pattern(String.raw`\bbuy\s+(.+?)\s+online\b`),
  pattern(String.raw`¿\s*qu[eé]\s+(?!opci[oó]n|alternativas|debo|marcas)(.+?)\s+(?:me\s+recomendar[ií]as|recomienda|recomiendas|tiene|son)\b`),
  pattern(String.raw`\bopci(?:[oó]n|ones)\s+(?:m[aá]s\s+populares\s+)?de\s+(.+?)(?=\s+(?:para|tiene|bien|m[aá]s|hay|ofrecen|son)\b|\s*[?,])`),
  pattern(String.raw`\bal\s+elegir\s+(.+?)${BUYER_END}`),
  pattern(String.raw`\breferentes\s+en\s+(.+?)${BUYER_END}`),
  pattern(String.raw`¿\s*a\s+qu[eé]\s+(.+?)\s+deber[ií]a\b`),
  pattern(String.raw`\bplan\s+de\s+(.+?)${BUYER_END}`),
  pattern(String.raw`\bcomprar\s+(.+?)\s+online\b`),
];
const RECOMMENDATION_CATEGORY = pattern(/\b(?:for|as\s+an?|as|para|como)\s+(.+?)(?=\s*[?!;:()¿¡]|\.(?:\s|$)|,|$)/);
const PHRASE_STOPWORDS = new Set([
  'what', 'which', 'is', 'are', 'the', 'a', 'an', 'best', 'good', 'should', 'i', 'we', 'use', 'for', 'my', 'our',
  'to', 'of', 'in', 'do', 'you', 'would', 'recommend', 'can', 'could', 'me', 'please', 'some', 'any', 'get', 'buy',
  'cual', 'cuales', 'es', 'son', 'el', 'la', 'los', 'las', 'un', 'una', 'mejor', 'mejores', 'para', 'de', 'que',
  'me', 'recomiendas', 'recomendarias', 'mi', 'en', 'deberia', 'usar', 'comprar', 'hay', 'how', 'and', 'y', 'or', 'o',
]);

/** The category as the prompt words it, by the phrase after "best"/"mejor", "list …" or "for …". */
function categoryPhrase(text: string, kind: PromptKind): string | undefined {
  // A recognition question names a brand, not a category.
  if (kind === 'recognition') return undefined;
  const patterns =
    kind === 'recommendation'
      ? [RECOMMENDATION_CATEGORY, ...CATEGORY_PATTERNS]
      : kind === 'buyer_question'
        ? [...BUYER_CATEGORY_PATTERNS, ...CATEGORY_PATTERNS]
        : CATEGORY_PATTERNS;
  for (const pattern of patterns) {
    const phrase = tidyPhrase(pattern.exec(text)?.[1] ?? '');
    if (phrase) return phrase;
  }
  // Nothing matched a pattern: keep the content words ("Which project management tool should I use?").
  if (kind === 'recommendation') return undefined;
  const words = text
    .replace(/[¿?¡!.,;:()"“”«»]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0 && !PHRASE_STOPWORDS.has(foldText(word)));
  return words.length > 0 ? words.slice(0, 4).join(' ') : undefined;
}

function tidyPhrase(raw: string): string | undefined {
  const phrase = raw
    .replace(/^(?:the|a|an|some|of|el|la|los|las|un|una|de)\s+/iu, '')
    .replace(/\s+(?:brands?|companies|marcas)$/iu, '')
    .trim();
  const words = phrase.split(' ').filter((word) => word.length > 0);
  if (words.length === 0 || words.length > 6) return undefined;
  if (words.every((word) => PHRASE_STOPWORDS.has(foldText(word)))) return undefined;
  return words.join(' ');
}

const AUDIENCE_PATTERNS: Readonly<Record<PromptLanguage, RegExp>> = {
  en: pattern(/\bfor\s+((?:an?|my|our|the)\s+[^?.!,;:]{2,60}?|(?:small|large|remote|beginners?|freelancers?|startups?|families|students|teams?|agencies|businesses|people|runners|developers|kids|travell?ers)\b[^?.!,;:]{0,50}?)(?=\s*[?.!,;:]|$)/),
  es: pattern(/\bpara\s+([^?¿.!,;:]{2,60}?)(?=\s*[?.!,;:]|$)/),
};

/** Who the buyer says they are ("for a small agency" → "a small agency"). */
function audiencePhrase(text: string, language: PromptLanguage): string | undefined {
  const audience = AUDIENCE_PATTERNS[language].exec(text)?.[1]?.trim();
  if (!audience) return undefined;
  // "for CRM software" names the category, not the buyer.
  return matchCategory(audience) ? undefined : audience;
}
