export const VERTICALS = ['saas', 'ecommerce', 'local_business', 'finance', 'travel', 'media', 'other'] as const;
export type Vertical = (typeof VERTICALS)[number];

export interface VerticalInput {
  /** schema.org types found in JSON-LD across the crawled pages. */
  schemaTypes: readonly string[];
  /** Titles, meta descriptions, og fields and h1/h2 headings: what the site says it is. */
  headlines: readonly string[];
  /** Visible body text. */
  text: string;
}

export interface VerticalClassification {
  vertical: Vertical;
  /** Points per vertical, for explaining the choice. */
  scores: Record<Exclude<Vertical, 'other'>, number>;
  /** The evidence that scored, e.g. "schema:SoftwareApplication", "headline:pricing", "text:free trial". */
  signals: string[];
}

interface VerticalRules {
  schemaTypes: readonly string[];
  /** Lower-case words or phrases, English and Spanish, matched on word boundaries. */
  keywords: readonly string[];
}

const RULES: Record<Exclude<Vertical, 'other'>, VerticalRules> = {
  saas: {
    schemaTypes: ['SoftwareApplication', 'WebApplication', 'MobileApplication'],
    keywords: [
      'software', 'saas', 'platform', 'api', 'integrations', 'dashboard', 'free trial', 'start free', 'sign up', 'workflow',
      'automation', 'per user', 'per seat', 'cloud', 'app', 'plataforma', 'prueba gratis', 'integraciones', 'automatización', 'en la nube',
    ],
  },
  ecommerce: {
    schemaTypes: ['Product', 'Offer', 'AggregateOffer', 'OnlineStore', 'ProductGroup'],
    keywords: [
      'add to cart', 'cart', 'checkout', 'free shipping', 'shop now', 'buy now', 'in stock', 'shop', 'returns', 'new arrivals',
      'añadir al carrito', 'carrito', 'envío gratis', 'comprar', 'tienda online', 'devoluciones', 'novedades',
    ],
  },
  local_business: {
    schemaTypes: [
      'LocalBusiness', 'Restaurant', 'CafeOrCoffeeShop', 'Bakery', 'Dentist', 'MedicalClinic', 'Physician', 'HairSalon', 'BeautySalon',
      'AutoRepair', 'Plumber', 'Electrician', 'LegalService', 'Attorney', 'RealEstateAgent', 'HomeAndConstructionBusiness', 'Store',
      'HealthAndBeautyBusiness', 'ProfessionalService', 'FoodEstablishment',
    ],
    keywords: [
      'opening hours', 'book an appointment', 'visit us', 'our location', 'directions', 'call us', 'near you', 'walk-ins',
      'horario', 'pide cita', 'cita previa', 'visítanos', 'dirección', 'llámanos', 'restaurante', 'clínica', 'peluquería', 'reservas',
    ],
  },
  finance: {
    schemaTypes: ['FinancialService', 'BankOrCreditUnion', 'FinancialProduct', 'LoanOrCredit', 'InsuranceAgency', 'InvestmentOrDeposit', 'CurrencyConversionService'],
    keywords: [
      'bank', 'banking', 'loan', 'loans', 'mortgage', 'credit card', 'invest', 'investing', 'insurance', 'interest rate', 'savings',
      'trading', 'banco', 'préstamo', 'préstamos', 'hipoteca', 'tarjeta de crédito', 'inversión', 'seguros', 'ahorro', 'tipo de interés',
    ],
  },
  travel: {
    schemaTypes: ['TravelAgency', 'Hotel', 'LodgingBusiness', 'Resort', 'Flight', 'TouristTrip', 'TouristAttraction', 'Trip', 'BedAndBreakfast', 'Hostel'],
    keywords: [
      'hotel', 'hotels', 'flights', 'vacation', 'holidays', 'travel', 'destinations', 'tours', 'resort', 'book your stay',
      'vuelos', 'viajes', 'vacaciones', 'destinos', 'hoteles', 'alojamiento', 'excursiones',
    ],
  },
  media: {
    schemaTypes: ['NewsMediaOrganization', 'NewsArticle', 'Article', 'BlogPosting', 'VideoObject', 'PodcastSeries', 'PodcastEpisode', 'Periodical'],
    keywords: [
      'news', 'breaking', 'latest stories', 'editorial', 'podcast', 'magazine', 'newsletter', 'journalism', 'opinion',
      'noticias', 'última hora', 'periódico', 'revista', 'reportajes', 'opinión',
    ],
  },
};

// Schema markup is deliberate self-description, so it outweighs words; headlines outweigh body text.
const SCHEMA_POINTS = 4;
const HEADLINE_POINTS = 2;
const TEXT_POINTS = 1;
/** Body text can add at most this much per vertical, so a long page of boilerplate cannot swamp the rest. */
const TEXT_CAP = 4;
/** Below this, or on a tie for first place, the site is "other". */
const MIN_SCORE = 3;

/**
 * A small keyword classifier: schema.org types (4 points each), keywords in headlines (2 each) and in body
 * text (1 each, at most 4); the best vertical wins when it has at least 3 points and no tie, else "other".
 */
export function classifyVertical(input: VerticalInput): VerticalClassification {
  const headlines = input.headlines.join(' \n ').toLowerCase();
  const text = input.text.slice(0, 100_000).toLowerCase();
  const schemaTypes = new Set(input.schemaTypes);
  const scores = { saas: 0, ecommerce: 0, local_business: 0, finance: 0, travel: 0, media: 0 };
  const signals: string[] = [];
  for (const [vertical, rules] of Object.entries(RULES) as [keyof typeof RULES, VerticalRules][]) {
    for (const type of rules.schemaTypes) {
      if (!schemaTypes.has(type)) continue;
      scores[vertical] += SCHEMA_POINTS;
      signals.push(`${vertical}: schema:${type}`);
    }
    let textPoints = 0;
    for (const keyword of rules.keywords) {
      if (containsPhrase(headlines, keyword)) {
        scores[vertical] += HEADLINE_POINTS;
        signals.push(`${vertical}: headline:${keyword}`);
      } else if (textPoints < TEXT_CAP && containsPhrase(text, keyword)) {
        textPoints += TEXT_POINTS;
        signals.push(`${vertical}: text:${keyword}`);
      }
    }
    scores[vertical] += textPoints;
  }
  const ranked = (Object.entries(scores) as [keyof typeof scores, number][]).sort((left, right) => right[1] - left[1]);
  const [first, second] = ranked;
  const vertical: Vertical = first !== undefined && first[1] >= MIN_SCORE && first[1] > (second?.[1] ?? 0) ? first[0] : 'other';
  return { vertical, scores, signals };
}

const PHRASE_PATTERNS = new Map<string, RegExp>();

/** Whole-word (or whole-phrase) match, Unicode-aware so "más" or "envío" are words too. */
function containsPhrase(haystack: string, phrase: string): boolean {
  let pattern = PHRASE_PATTERNS.get(phrase);
  if (pattern === undefined) {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u');
    PHRASE_PATTERNS.set(phrase, pattern);
  }
  return pattern.test(haystack);
}
