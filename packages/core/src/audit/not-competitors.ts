// Names that answers mention but that are not competing brands for most categories: marketplaces and
// stores, review sites and directories, maps, publishers, social platforms, app stores and technologies.
// "Buy it on Amazon", "check Google Maps", "Wirecutter's pick", "Markdown support" name no rival of a
// dentist, an issue tracker or a shoe brand. Each entry says for which categories it *is* a competitor
// (a retailer competes with stores, a review site with review sites), so "Costco" stays a competitor
// of Walmart in "supermarkets" and is dropped from "running shoes".

import { compactBrandKey } from '../extraction/index.js';

type Role = 'store' | 'review' | 'maps' | 'publisher' | 'social' | 'technology' | 'search';

interface NonCompetitor {
  readonly names: readonly string[];
  readonly role: Role;
}

const ENTRIES: readonly NonCompetitor[] = [
  { role: 'store', names: ['Amazon', 'Amazon.com', 'Walmart', 'Costco', 'Target', 'Best Buy', 'eBay', 'Etsy', 'AliExpress', 'Temu', 'Mercado Libre', 'MercadoLibre', 'El Corte Inglés', 'El Corte Ingles', 'Carrefour', 'MediaMarkt', 'Fnac', 'Zalando', 'Decathlon', "Dick's Sporting Goods", 'REI', 'Home Depot', "Lowe's", 'IKEA Marketplace', 'Shopify', 'App Store', 'Google Play', 'Apple App Store', 'Google Play Store', 'Chrome Web Store'] },
  { role: 'review', names: ['G2', 'Capterra', 'TrustRadius', 'Trustpilot', 'GetApp', 'Software Advice', 'Product Hunt', 'Consumer Reports', 'Wirecutter', 'RTINGS', 'Which?', 'Yelp', 'Tripadvisor', 'TheFork', 'ElTenedor', 'OpenTable', 'Foursquare', 'Nextdoor', 'Angi', "Angie's List", 'Thumbtack', 'Checkatrade', 'Doctoralia', 'Zocdoc', 'Healthgrades', 'Glassdoor', 'Clutch', 'Booking.com', 'Expedia', 'Airbnb', 'Google Reviews', 'Google Business Profile'] },
  { role: 'maps', names: ['Google Maps', 'Apple Maps', 'Bing Maps', 'Waze', 'OpenStreetMap', 'Bing Places', 'Apple Business Connect'] },
  { role: 'publisher', names: ['New York Times', 'The New York Times', 'NYT', 'Wall Street Journal', 'The Guardian', 'BBC', 'CNN', 'Forbes', 'Business Insider', 'TechCrunch', 'The Verge', 'Wired', 'CNET', 'PCMag', 'Tom\'s Guide', 'TechRadar', 'Runner\'s World', 'El País', 'El Mundo', 'Wikipedia', 'Wikidata'] },
  { role: 'social', names: ['Reddit', 'YouTube', 'Facebook', 'Instagram', 'TikTok', 'LinkedIn', 'Twitter', 'Quora', 'Pinterest', 'WhatsApp', 'Discord', 'Stack Overflow', 'Hacker News'] },
  { role: 'search', names: ['Google', 'Bing', 'ChatGPT', 'Perplexity', 'DuckDuckGo'] },
  { role: 'technology', names: ['Markdown', 'HTML', 'CSS', 'JSON', 'PDF', 'GraphQL', 'SQL', 'Python', 'JavaScript', 'TypeScript', 'Bluetooth', 'Wi-Fi', 'WiFi', 'USB-C', 'iOS', 'Android', 'Windows', 'macOS', 'Linux', 'Kanban', 'Scrum', 'Agile', 'GDPR', 'SOC 2', 'OAuth', 'SSO', 'SAML', 'Zapier', 'Slack integration', 'Gore-Tex', 'GORE-TEX', 'Vibram', 'CloudTec'] },
];

// Category words under which a role *is* a competitor (a review site audited among review sites).
const ROLE_CATEGORY_WORDS: Readonly<Record<Role, readonly string[]>> = {
  store: ['store', 'stores', 'shop', 'shops', 'retailer', 'retailers', 'marketplace', 'marketplaces', 'supermarket', 'supermarkets', 'ecommerce', 'e-commerce', 'department', 'tienda', 'tiendas', 'supermercado', 'supermercados', 'comercio', 'grandes almacenes', 'app store', 'app stores'],
  review: ['review', 'reviews', 'directory', 'directories', 'booking', 'travel', 'reservations', 'reseñas', 'reservas', 'directorio', 'viajes'],
  maps: ['map', 'maps', 'navigation', 'gps', 'mapas', 'navegación'],
  publisher: ['news', 'newspaper', 'newspapers', 'magazine', 'magazines', 'media', 'publisher', 'publishers', 'encyclopedia', 'noticias', 'periódico', 'periódicos', 'revista', 'revistas', 'medios'],
  social: ['social', 'community', 'communities', 'forum', 'forums', 'video', 'messaging', 'chat', 'redes sociales', 'foro', 'foros', 'mensajería'],
  search: ['search', 'search engine', 'search engines', 'assistant', 'assistants', 'chatbot', 'chatbots', 'ai', 'buscador', 'buscadores', 'asistente'],
  technology: ['programming', 'language', 'languages', 'framework', 'frameworks', 'operating system', 'format', 'formats', 'protocol', 'integration platform', 'automation', 'lenguaje', 'sistema operativo'],
};

const ROLE_BY_KEY = new Map<string, Role>();
for (const entry of ENTRIES) for (const name of entry.names) ROLE_BY_KEY.set(compactBrandKey(name), entry.role);

/**
 * Whether a name the answers mention is a platform, store, publisher or technology rather than a competing
 * brand, for this category. Unknown names are competitors; watched competitors are never passed here.
 */
export function isNonCompetitor(name: string, category: string): boolean {
  const role = ROLE_BY_KEY.get(compactBrandKey(name));
  if (role === undefined) return false;
  const folded = ` ${category.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ').trim()} `;
  return !ROLE_CATEGORY_WORDS[role].some((word) => folded.includes(` ${word} `));
}
