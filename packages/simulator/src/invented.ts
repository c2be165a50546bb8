// The demo world for categories it does not know: a deterministic set of invented names shaped like
// businesses of that kind (a dentist gets clinics, an issue tracker gets software, dog food gets product
// brands), never real retailers, publishers or maps. The same category gets the same names in every
// question, so an audit over many buyer questions sees a consistent field of competitors.

import { detectRegion } from './lookup.js';
import { unitHash } from './random.js';
import { capitalizeFirst, foldText, matchWords, containsWords } from './text.js';
import type { PromptLanguage } from './types.js';
import type { Market, WorldBrand, WorldCategory } from './world.js';

/** What kind of business a category is. */
export type InventedKind = 'local' | 'software' | 'product';

/** A local trade with its own naming pattern ("Oakridge Dental", "Clínica Dental Alameda"). */
interface LocalTrade {
  readonly id: string;
  /** Folded, stemmed phrases that signal the trade anywhere in the prompt. */
  readonly cues: readonly string[];
  /** English names around a place-like stem. */
  readonly en: readonly ((stem: string) => string)[];
  /** Spanish names around a place-like stem. */
  readonly es: readonly ((stem: string) => string)[];
  /** The business, singular, in English ("dental clinic") and Spanish with gender ("clínica dental", f). */
  readonly nounEn: string;
  readonly nounEs: string;
  readonly gender: 'm' | 'f';
}

const TRADES: readonly LocalTrade[] = [
  trade('dental', ['dentist', 'dental', 'orthodontist', 'dentista', 'odontologo', 'odontologia', 'ortodoncia', 'clinica dental'],
    [(s) => `${s} Dental`, (s) => `${s} Dental Clinic`, (s) => `${s} Smile Studio`], [(s) => `Clínica Dental ${s}`, (s) => `Dental ${s}`, (s) => `Odontología ${s}`],
    'dental clinic', 'clínica dental', 'f'),
  trade('physio', ['physio', 'physiotherapist', 'physiotherapy', 'physical therapist', 'chiropractor', 'fisioterapeuta', 'fisioterapia', 'fisio'],
    [(s) => `${s} Physio`, (s) => `${s} Physiotherapy`], [(s) => `Fisio ${s}`, (s) => `Fisioterapia ${s}`], 'physiotherapy clinic', 'clínica de fisioterapia', 'f'),
  trade('vet', ['vet', 'veterinarian', 'veterinary', 'veterinario', 'veterinaria'],
    [(s) => `${s} Vets`, (s) => `${s} Animal Clinic`], [(s) => `Clínica Veterinaria ${s}`, (s) => `Veterinaria ${s}`], 'veterinary clinic', 'clínica veterinaria', 'f'),
  trade('medical', ['doctor', 'gp', 'physician', 'medical clinic', 'dermatologist', 'medico', 'centro medico', 'dermatologo'],
    [(s) => `${s} Medical Centre`, (s) => `${s} Health Clinic`], [(s) => `Centro Médico ${s}`, (s) => `Clínica ${s}`], 'medical practice', 'centro médico', 'm'),
  trade('plumber', ['plumber', 'plumbing', 'fontanero', 'fontaneria', 'plomero', 'plomeria'],
    [(s) => `${s} Plumbing`, (s) => `${s} Plumbing & Heating`], [(s) => `Fontanería ${s}`, (s) => `Fontaneros ${s}`], 'plumbing company', 'empresa de fontanería', 'f'),
  trade('electrician', ['electrician', 'electrical', 'electricista'],
    [(s) => `${s} Electrical`, (s) => `${s} Electric`], [(s) => `Electricidad ${s}`, (s) => `Instalaciones ${s}`], 'electrical contractor', 'empresa de electricidad', 'f'),
  trade('lawyer', ['lawyer', 'attorney', 'law firm', 'solicitor', 'abogado', 'bufete', 'despacho de abogado'],
    [(s) => `${s} Law`, (s) => `${s} & Partners`, (s) => `${s} Legal`], [(s) => `${s} Abogados`, (s) => `Bufete ${s}`], 'law firm', 'despacho de abogados', 'm'),
  trade('accountant', ['accountant', 'bookkeeper', 'tax advisor', 'gestoria', 'asesoria', 'contador', 'asesor fiscal'],
    [(s) => `${s} Accounting`, (s) => `${s} Tax & Accounts`], [(s) => `Asesoría ${s}`, (s) => `Gestoría ${s}`], 'accounting firm', 'asesoría', 'f'),
  trade('gym', ['gym', 'fitness', 'crossfit', 'gimnasio', 'personal trainer', 'entrenador personal'],
    [(s) => `${s} Fitness`, (s) => `${s} Gym`, (s) => `${s} Strength Club`], [(s) => `Gimnasio ${s}`, (s) => `${s} Fitness`], 'gym', 'gimnasio', 'm'),
  trade('yoga', ['yoga', 'pilates'], [(s) => `${s} Yoga`, (s) => `${s} Pilates Studio`], [(s) => `Yoga ${s}`, (s) => `Estudio Pilates ${s}`], 'studio', 'estudio', 'm'),
  trade('restaurant', ['restaurant', 'restaurante', 'bistro', 'taqueria', 'pizzeria', 'pizza', 'sushi', 'tapas', 'brunch', 'steakhouse', 'asador'],
    [(s) => `${s} Kitchen`, (s) => `The ${s} Table`, (s) => `${s} Bistro`], [(s) => `Restaurante ${s}`, (s) => `Casa ${s}`, (s) => `Taberna ${s}`], 'restaurant', 'restaurante', 'm'),
  trade('bakery', ['bakery', 'patisserie', 'panaderia', 'pasteleria'],
    [(s) => `${s} Bakery`, (s) => `${s} Bread Co.`], [(s) => `Panadería ${s}`, (s) => `Pastelería ${s}`], 'bakery', 'panadería', 'f'),
  trade('hair', ['hairdresser', 'hair salon', 'barber', 'barbershop', 'salon', 'peluqueria', 'barberia', 'peluquero'],
    [(s) => `${s} Hair Studio`, (s) => `${s} Barbers`], [(s) => `Peluquería ${s}`, (s) => `Barbería ${s}`], 'hair salon', 'peluquería', 'f'),
  trade('beauty', ['beauty salon', 'nail salon', 'spa', 'massage', 'estetica', 'centro de estetica', 'masaje'],
    [(s) => `${s} Spa`, (s) => `${s} Beauty Rooms`], [(s) => `Estética ${s}`, (s) => `Spa ${s}`], 'beauty salon', 'centro de estética', 'm'),
  trade('hotel', ['hotel', 'hostel', 'bed and breakfast', 'guesthouse', 'hostal', 'alojamiento'],
    [(s) => `Hotel ${s}`, (s) => `${s} House`, (s) => `The ${s} Inn`], [(s) => `Hotel ${s}`, (s) => `Hostal ${s}`], 'hotel', 'hotel', 'm'),
  trade('real_estate', ['real estate', 'estate agent', 'realtor', 'letting agent', 'inmobiliaria', 'agencia inmobiliaria'],
    [(s) => `${s} Properties`, (s) => `${s} Estates`], [(s) => `Inmobiliaria ${s}`, (s) => `${s} Propiedades`], 'estate agency', 'inmobiliaria', 'f'),
  trade('car_repair', ['mechanic', 'car repair', 'auto repair', 'garage', 'taller', 'taller mecanico', 'mecanico'],
    [(s) => `${s} Auto Repair`, (s) => `${s} Motors`], [(s) => `Taller ${s}`, (s) => `Talleres ${s}`], 'car repair shop', 'taller mecánico', 'm'),
  trade('school', ['language school', 'driving school', 'tutor', 'tutoring', 'academy', 'school', 'academia', 'autoescuela', 'escuela', 'colegio'],
    [(s) => `${s} Academy`, (s) => `${s} School`], [(s) => `Academia ${s}`, (s) => `Escuela ${s}`], 'school', 'academia', 'f'),
  trade('cleaning', ['cleaning service', 'cleaner', 'house cleaning', 'limpieza', 'empresa de limpieza'],
    [(s) => `${s} Cleaning`, (s) => `${s} Home Services`], [(s) => `Limpiezas ${s}`, (s) => `Servicios ${s}`], 'cleaning company', 'empresa de limpieza', 'f'),
  trade('moving', ['mover', 'moving company', 'removal', 'mudanza'],
    [(s) => `${s} Removals`, (s) => `${s} Movers`], [(s) => `Mudanzas ${s}`, (s) => `Transportes ${s}`], 'moving company', 'empresa de mudanzas', 'f'),
  trade('florist', ['florist', 'flower shop', 'floristeria', 'floreria'],
    [(s) => `${s} Flowers`, (s) => `${s} Florist`], [(s) => `Floristería ${s}`, (s) => `Flores ${s}`], 'florist', 'floristería', 'f'),
];

function trade(
  id: string,
  cues: readonly string[],
  en: LocalTrade['en'],
  es: LocalTrade['es'],
  nounEn: string,
  nounEs: string,
  gender: 'm' | 'f',
): LocalTrade {
  return { id, cues, en, es, nounEn, nounEs, gender };
}

// Words that make an unknown category software, or a local place.
const SOFTWARE_CUES = [
  'software', 'app', 'apps', 'tool', 'platform', 'saas', 'tracker', 'crm', 'erp', 'api', 'plugin', 'extension', 'hosting',
  'analytics', 'management', 'automation', 'dashboard', 'database', 'cloud', 'chatbot', 'ai', 'website builder', 'editor',
  'scheduler', 'scheduling', 'payroll', 'invoicing', 'helpdesk', 'help desk', 'ticketing', 'monitoring', 'antivirus', 'password manager',
  'aplicacion', 'herramienta', 'plataforma', 'programa', 'sistema', 'gestor', 'nube',
];
const LOCAL_CUES = ['near me', 'nearby', 'in town', 'open now', 'cerca de mi', 'cerca', 'abierto ahora', 'agency', 'agencia', 'studio', 'shop', 'store', 'tienda', 'clinic', 'clinica', 'service', 'servicio'];

const PREPARED_TRADES = TRADES.map((entry) => ({ entry, cues: entry.cues.map((cue) => matchWords(cue)) }));
const PREPARED_SOFTWARE = SOFTWARE_CUES.map((cue) => matchWords(cue));
const PREPARED_LOCAL = LOCAL_CUES.map((cue) => matchWords(cue));

// Place-like stems for local businesses: English ones, and Spanish ones for Spanish-speaking places.
const STEMS_EN = ['Oakridge', 'Riverside', 'Northgate', 'Brightwater', 'Harbourview', 'Cedar Park', 'Willowbrook', 'Kingsley', 'Ashford', 'Greenway', 'Stonebridge', 'Maple Lane'];
const STEMS_ES = ['Alameda', 'del Sol', 'Olivar', 'Mirador', 'La Ribera', 'Los Álamos', 'Arrabal', 'Puerta Verde', 'San Telmo', 'La Fuente', 'Las Encinas', 'Buenavista'];
// Invented software names: a prefix and a suffix joined into one word ("Kitebase", "Quillflow").
const SOFTWARE_PREFIXES = ['Kite', 'Quill', 'Tandem', 'Cobalt', 'Lumen', 'Brisk', 'Pinecone', 'Orbit', 'Relay', 'Sparrow', 'Fable', 'Nimbus', 'Meadow', 'Ember'];
const SOFTWARE_SUFFIXES = ['base', 'flow', 'desk', 'ly', 'stack', 'loop', 'works', 'hub', 'wise', 'grid'];
// Invented product brands: two syllables ("Velora", "Torix").
const PRODUCT_HEADS = ['Vel', 'Tor', 'Mar', 'Kal', 'Nor', 'Sol', 'Bren', 'Cor', 'Lum', 'Ara', 'Fen', 'Oda', 'Tav', 'Rin'];
const PRODUCT_TAILS = ['ora', 'ix', 'en', 'ova', 'ara', 'eo', 'ant', 'wyn', 'elle', 'io'];

const BRAND_COUNT = 8;
const SPANISH_MARKETS = new Set<Market>(['es', 'mx', 'co', 'ar', 'cl', 'pe', 'latam']);

/** The invented category for a prompt the world does not know: its kind, names and descriptions. */
export interface InventedCategory extends WorldCategory {
  readonly kind: InventedKind;
}

/**
 * Invents the competitors for an unknown category. `phrase` is the category as the prompt words it; the
 * names depend only on the kind, the trade (or the phrase's head words) and the market, never on the
 * question's wording, so every buyer question about the category names the same field.
 */
export function inventCategory(prompt: string, phrase: string | undefined, language: PromptLanguage): InventedCategory {
  const words = matchWords(`${prompt}`);
  const trade = PREPARED_TRADES.find(({ cues }) => cues.some((cue) => containsWords(words, cue)))?.entry;
  const region = detectRegion(prompt);
  const spanishPlace = region !== undefined ? SPANISH_MARKETS.has(region) : language === 'es';
  const head = headWords(phrase ?? '');
  if (trade !== undefined) return localCategory(trade, spanishPlace, head);
  if (PREPARED_SOFTWARE.some((cue) => containsWords(words, cue))) return softwareCategory(head);
  if (PREPARED_LOCAL.some((cue) => containsWords(words, cue))) return localCategory(genericTrade(head, language), spanishPlace, head);
  return productCategory(head);
}

/** The category's own words without places, articles and question words: the seed of its names. */
function headWords(phrase: string): string {
  const cut = foldText(phrase).split(/\s+(?:in|near|for|en|cerca|para|around|at)\s+/u)[0] ?? '';
  return matchWords(cut).filter((word) => !['a', 'an', 'the', 'el', 'la', 'los', 'las', 'un', 'una', 'de'].includes(word)).join(' ');
}

function localCategory(entry: LocalTrade, spanishPlace: boolean, head: string): InventedCategory {
  const stems = pickDistinct(spanishPlace ? STEMS_ES : STEMS_EN, BRAND_COUNT, `local:${entry.id}:${spanishPlace}`);
  const patterns = spanishPlace ? entry.es : entry.en;
  const brands = stems.map((stem, index) => {
    const pattern = patterns[index % patterns.length] ?? ((s: string) => s);
    return invented(pattern(stem), localDescription(entry, index), localDescriptionEs(entry, index));
  });
  return { id: `invented_local_${entry.id}`, kind: 'local', name: { en: entry.nounEn, es: entry.nounEs }, keywords: [], brands: uniqueNames(brands, head) };
}

function genericTrade(head: string, language: PromptLanguage): LocalTrade {
  // "yoga retreat" → "Oakridge Yoga Retreat"; the Spanish order puts the noun first ("Agencia Alameda").
  const title = head
    .split(' ')
    .filter((word) => word.length > 0)
    .map((word) => capitalizeFirst(word))
    .join(' ') || (language === 'es' ? 'Estudio' : 'Studio');
  return trade(`generic_${head || 'place'}`, [], [(s) => `${s} ${title}`], [(s) => `${title} ${s}`], 'local business', 'negocio local', 'm');
}

const LOCAL_EN = [
  (noun: string) => `a ${noun} with consistently strong reviews and easy online booking`,
  (noun: string) => `a long-established ${noun} that locals trust`,
  (noun: string) => `a modern ${noun} known for friendly staff and clear prices`,
  (noun: string) => `a small, highly rated ${noun} that is worth booking ahead`,
  (noun: string) => `a ${noun} with long opening hours, handy for busy schedules`,
  (noun: string) => `a family-run ${noun} with a loyal local following`,
];

function localDescription(entry: LocalTrade, index: number): string {
  const template = LOCAL_EN[index % LOCAL_EN.length] ?? LOCAL_EN[0];
  return template ? template(entry.nounEn) : entry.nounEn;
}

function localDescriptionEs(entry: LocalTrade, index: number): string {
  const un = entry.gender === 'f' ? 'una' : 'un';
  const o = entry.gender === 'f' ? 'a' : 'o';
  const lines = [
    `${un} ${entry.nounEs} con reseñas muy buenas y reserva online sencilla`,
    `${un} ${entry.nounEs} con muchos años de experiencia y de confianza en el barrio`,
    `${un} ${entry.nounEs} modern${o}, conocid${o} por su trato cercano y sus precios claros`,
    `${un} ${entry.nounEs} pequeñ${o} y muy bien valorad${o}; conviene reservar con antelación`,
    `${un} ${entry.nounEs} con horario amplio, cómod${o} si tienes poco tiempo`,
    `${un} ${entry.nounEs} familiar con clientes fieles en la zona`,
  ];
  return lines[index % lines.length] ?? lines[0] ?? entry.nounEs;
}

function softwareCategory(head: string): InventedCategory {
  const noun = singularPhrase(head) || 'tool';
  const names = pickDistinct(SOFTWARE_PREFIXES, BRAND_COUNT, `software:${head}`).map((prefix, index) => {
    const suffix = SOFTWARE_SUFFIXES[Math.floor(unitHash(0, 'software-suffix', head, prefix) * SOFTWARE_SUFFIXES.length) % SOFTWARE_SUFFIXES.length] ?? 'ly';
    return { name: `${prefix}${suffix}`, index };
  });
  const english = [
    `a fast, modern ${noun} with a generous free plan`,
    `a ${noun} popular with small teams for its simple setup`,
    `an all-in-one ${noun} with strong integrations and automation`,
    `an affordable ${noun} with responsive support`,
    `an enterprise-grade ${noun} with advanced permissions and reporting`,
    `an open-source ${noun} you can host yourself`,
    `a ${noun} with a clean interface and good mobile apps`,
    `a flexible ${noun} that agencies and consultants like`,
  ].map(fixArticle);
  const spanish = [
    'una herramienta rápida y moderna, con un plan gratuito generoso',
    'una herramienta popular entre equipos pequeños por lo fácil que es de poner en marcha',
    'una plataforma todo en uno con buenas integraciones y automatizaciones',
    'una opción asequible con un soporte que responde rápido',
    'una plataforma para grandes empresas, con permisos e informes avanzados',
    'una opción de código abierto que puedes alojar tú mismo',
    'una herramienta con una interfaz limpia y buenas apps móviles',
    'una plataforma flexible que gusta a agencias y consultores',
  ];
  const brands = names.map(({ name, index }) => invented(name, english[index] ?? english[0] ?? noun, spanish[index] ?? spanish[0] ?? ''));
  return { id: `invented_software_${head}`, kind: 'software', name: { en: head || 'software', es: head || 'software' }, keywords: [], brands: uniqueNames(brands, head) };
}

function productCategory(head: string): InventedCategory {
  const names = pickDistinct(PRODUCT_HEADS, BRAND_COUNT, `product:${head}`).map((first) => {
    const tail = PRODUCT_TAILS[Math.floor(unitHash(0, 'product-tail', head, first) * PRODUCT_TAILS.length) % PRODUCT_TAILS.length] ?? 'ora';
    return `${first}${tail}`;
  });
  const english = [
    'a well-reviewed brand with a loyal following',
    'a value-focused brand with solid quality at fair prices',
    'a premium brand known for durable, well-made products',
    'a newer direct-to-consumer brand with strong reviews',
    'a brand reviewers often pick for first-time buyers',
    'a popular mid-range brand with a wide selection',
    'a brand known for thoughtful design and a good warranty',
    'a sustainability-minded brand with transparent sourcing',
  ];
  const spanish = [
    'una marca muy valorada y con clientes fieles',
    'una marca con buena relación calidad-precio',
    'una marca premium conocida por su calidad y durabilidad',
    'una marca más nueva, de venta directa, con muy buenas reseñas',
    'una marca que suelen recomendar para quien compra por primera vez',
    'una marca de gama media muy popular, con mucha variedad',
    'una marca conocida por su diseño cuidado y su buena garantía',
    'una marca comprometida con la sostenibilidad y el origen transparente',
  ];
  const brands = names.map((name, index) => invented(name, english[index] ?? '', spanish[index] ?? ''));
  return { id: `invented_product_${head}`, kind: 'product', name: { en: head || 'products', es: head || 'productos' }, keywords: [], brands: uniqueNames(brands, head) };
}

function invented(name: string, description: string, descriptionEs: string): WorldBrand {
  return { name, description, descriptionEs };
}

/** Drops names that collide with each other (two stems can give one name with a short pattern list). */
function uniqueNames(brands: readonly WorldBrand[], _head: string): WorldBrand[] {
  const seen = new Set<string>();
  return brands.filter((brand) => {
    const key = foldText(brand.name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `count` distinct entries of `pool`, in an order fixed by `key`. */
function pickDistinct(pool: readonly string[], count: number, key: string): string[] {
  return [...pool]
    .map((entry) => ({ entry, order: unitHash(0, 'invented', key, entry) }))
    .sort((left, right) => left.order - right.order)
    .slice(0, Math.min(count, pool.length))
    .map(({ entry }) => entry);
}

/** "issue trackers" → "issue tracker"; a mass noun ("crm software") stays. */
function singularPhrase(head: string): string {
  const words = head.split(' ').filter((word) => word.length > 0);
  // matchWords already dropped plural s; keep acronyms upper case as buyers write them.
  return words.map((word) => (/^(?:crm|erp|api|ai|hr|seo|saas|vpn|pos)$/u.test(word) ? word.toUpperCase() : word)).join(' ');
}

function fixArticle(text: string): string {
  return text.replace(/^an? (\S)/u, (_match, first: string) => `${/[aeiou]/iu.test(first) ? 'an' : 'a'} ${first}`);
}
