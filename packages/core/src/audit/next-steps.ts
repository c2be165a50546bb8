// personalizedNextSteps: concrete actions from the crawl (what assistants' crawlers can read on the site)
// and the answers (who gets named instead), each with why it matters and how to do it, by priority.

import type { CrawlReport } from '../crawl/crawl-report.js';
import { AI_CRAWLERS } from '../crawl/robots.js';
import { normalizeWhitespace } from '../measurements/prompts.js';
import { brandlessCategory } from './buyer-questions.js';
import { englishCategoryForms } from './category-grammar.js';
import type { NextStep, NextStepPriority, ProviderFinding, RankedCompetitor } from './types.js';

export interface NextStepsInput {
  crawl: CrawlReport | undefined;
  findings: readonly ProviderFinding[];
  competitors: readonly RankedCompetitor[];
  brand: string;
  category: string;
  /** The measurement language: English categories are pluralised where a sentence needs it. */
  language?: 'en' | 'es' | undefined;
  /** The market the audit was asked for ("Madrid"): a located audit is a local business's, even when the site could not be read. */
  location?: string | undefined;
}

/** Below this share of answers naming the brand, it is "rarely named": getting listed where assistants look comes first. */
export const RARELY_NAMED_RATE = 0.3;
/** Below this share, comparison pages against the winners are a high priority. */
export const OFTEN_MISSED_RATE = 0.5;
/** Comparison pages suggested against at most this many competitors. */
const MAX_COMPARISON_PAGES = 3;

const PRIORITY_ORDER: Readonly<Record<NextStepPriority, number>> = { high: 0, medium: 1, low: 2 };

// schema.org types that describe the organisation behind the site (Organization and its common subtypes).
const ORGANIZATION_TYPES = new Set([
  'Organization', 'Corporation', 'OnlineBusiness', 'OnlineStore', 'LocalBusiness', 'NewsMediaOrganization', 'NGO',
  'EducationalOrganization', 'MedicalOrganization', 'SportsOrganization', 'Airline', 'Brand',
]);
const LOCAL_BUSINESS_TYPES = new Set([
  'LocalBusiness', 'Restaurant', 'CafeOrCoffeeShop', 'Bakery', 'Dentist', 'MedicalClinic', 'Physician', 'HairSalon', 'BeautySalon',
  'AutoRepair', 'Plumber', 'Electrician', 'LegalService', 'Attorney', 'RealEstateAgent', 'HomeAndConstructionBusiness', 'Store',
  'HealthAndBeautyBusiness', 'ProfessionalService', 'FoodEstablishment', 'Hotel', 'LodgingBusiness', 'TravelAgency', 'FinancialService',
  'BankOrCreditUnion', 'InsuranceAgency',
]);
const SOFTWARE_TYPES = new Set(['SoftwareApplication', 'WebApplication', 'MobileApplication']);
const PRODUCT_TYPES = new Set(['Product', 'ProductGroup', 'Offer', 'AggregateOffer']);

/** The actions for this brand, without duplicates, high priority first. */
export function buildNextSteps(input: NextStepsInput): NextStep[] {
  const brand = normalizeWhitespace(input.brand);
  const steps: NextStep[] = [...crawlSteps(input.crawl, brand, input.category), ...answerSteps(input, brand)];
  const seen = new Set<string>();
  const unique = steps.filter((step) => {
    if (seen.has(step.id)) return false;
    seen.add(step.id);
    return true;
  });
  // Array.prototype.sort is stable: within a priority the order above (site access first) is kept.
  return unique.sort((left, right) => PRIORITY_ORDER[left.priority] - PRIORITY_ORDER[right.priority]);
}

function crawlSteps(crawl: CrawlReport | undefined, brand: string, category: string): NextStep[] {
  if (crawl === undefined) {
    return [
      {
        id: 'site-not-checked',
        priority: 'low',
        title: 'Have the site checked',
        why: 'The site was not crawled for this audit, so nothing is known about what assistants’ crawlers can read on it.',
        how: 'Run the audit again with the website set; it checks robots.txt, bot access, structured data, llms.txt and the sitemap.',
      },
    ];
  }
  if (!crawl.ok) return [unreachableStep(crawl)];

  const steps: NextStep[] = [];
  if (crawl.robots.status === 'unreachable') {
    steps.push({
      id: 'fix-robots-txt-errors',
      priority: 'high',
      title: 'Make robots.txt answer normally',
      why: `Requesting ${crawl.robots.url ?? '/robots.txt'} failed${crawl.robots.httpStatus === null ? '' : ` with ${crawl.robots.httpStatus}`}. Crawlers that follow the robots.txt standard (RFC 9309) treat a robots.txt that errors as "disallow everything", so assistants' search crawlers may not read any page.`,
      how: 'Serve /robots.txt with status 200 (or 404 if you want no rules at all), as plain text, from every edge location of your CDN.',
    });
  }

  // An unreachable robots.txt blocks every crawler (the step above); listing each of them again adds nothing.
  const verdicts = crawl.robots.status === 'unreachable' ? [] : crawl.aiCrawlers;
  const blockedSearch = verdicts.filter((crawler) => crawler.purpose !== 'training' && !crawler.allowed);
  if (blockedSearch.length > 0) {
    const names = blockedSearch.map((crawler) => crawler.token);
    const rules = [...new Set(blockedSearch.map((crawler) => crawler.rule).filter((rule) => rule !== undefined))];
    steps.push({
      id: 'unblock-assistant-search-crawlers',
      priority: 'high',
      title: `Allow assistant-search crawlers in robots.txt (${names.join(', ')})`,
      why:
        `robots.txt blocks ${names.join(', ')}${rules.length > 0 ? ` (${rules.join('; ')})` : ''}. These are the crawlers behind ` +
        'ChatGPT search, Claude and Perplexity answers and the fetches they make when a user asks about you: blocked, the ' +
        'assistants cannot read or cite your pages today. They are not the training crawlers (GPTBot, ClaudeBot, ' +
        'Google-Extended, CCBot), which only collect text for future models and can stay blocked if you prefer.',
      how: `Add a group per crawler before any "User-agent: *" rules, e.g.\n${names.map((name) => `User-agent: ${name}\nAllow: /`).join('\n\n')}\nthen re-check with a robots.txt tester.`,
    });
  }

  const blockedTraining = verdicts.filter((crawler) => crawler.purpose === 'training' && !crawler.allowed);
  if (blockedTraining.length > 0) {
    steps.push({
      id: 'review-training-crawlers',
      priority: 'low',
      title: `Decide deliberately about training crawlers (${blockedTraining.map((crawler) => crawler.token).join(', ')})`,
      why: 'robots.txt blocks crawlers that collect text to train future models. That does not stop assistants from searching and citing your site today, but future models will learn less about you from your own pages.',
      how: 'Keep the block if that is your policy; otherwise remove the Disallow for these user agents. Keep the assistant-search crawlers (' +
        AI_CRAWLERS.filter((crawler) => crawler.purpose === 'assistant_search').map((crawler) => crawler.token).join(', ') +
        ') allowed either way.',
    });
  }

  if (crawl.botAccess?.blocked === true) {
    const access = crawl.botAccess;
    steps.push({
      id: 'fix-bot-blocking-cdn',
      priority: 'high',
      title: `Stop your CDN or firewall from blocking AI crawlers (${access.userAgent} gets ${access.botStatus ?? 'no response'})`,
      why: `Your homepage answers a browser with ${access.browserStatus ?? 'no response'} but ${access.reason}. A bot-protection rule that refuses AI user agents hides the site from assistants even when robots.txt allows them.`,
      how: 'In your CDN or WAF (e.g. Cloudflare "Block AI bots" / bot-fight mode, Akamai, Imperva), allow verified AI crawlers (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, PerplexityBot) instead of challenging them, then check with `curl -A "OAI-SearchBot" -I <your homepage>` that it answers 200.',
    });
  }

  const types = new Set(crawl.schemaTypes);
  const hasAny = (wanted: ReadonlySet<string>): boolean => [...types].some((type) => wanted.has(type));
  if (!hasAny(ORGANIZATION_TYPES) && !hasAny(LOCAL_BUSINESS_TYPES)) {
    steps.push({
      id: 'add-organization-schema',
      priority: 'medium',
      title: 'Add Organization structured data (JSON-LD) to the homepage',
      why: 'No Organization markup was found. It states unambiguously who you are (name, logo, website, social profiles), which helps search engines and the assistants built on them connect your brand to your site.',
      how: `Add <script type="application/ld+json"> with {"@context":"https://schema.org","@type":"Organization","name":"${brand}","url":"${crawl.finalUrl ?? crawl.website}","logo":"…","sameAs":["…"]} to the homepage.`,
    });
  }
  if (crawl.vertical === 'saas' && !hasAny(SOFTWARE_TYPES)) {
    steps.push({
      id: 'add-software-application-schema',
      priority: 'medium',
      title: 'Describe the product with SoftwareApplication structured data',
      why: 'The site reads as software, but no SoftwareApplication markup was found: category, operating system, price and ratings stay implicit.',
      how: 'Add JSON-LD with "@type":"SoftwareApplication", "applicationCategory", "operatingSystem", "offers" (price and currency) and, if you have them, "aggregateRating" on the homepage or pricing page.',
    });
  }
  if (crawl.vertical === 'ecommerce' && !hasAny(PRODUCT_TYPES)) {
    steps.push({
      id: 'add-product-schema',
      priority: 'medium',
      title: 'Add Product structured data to product pages',
      why: 'The site reads as a shop, but no Product or Offer markup was found on the pages read: price, availability and reviews are what shopping answers compare.',
      how: 'On every product page add JSON-LD with "@type":"Product", "name", "brand", "image", "offers" (price, priceCurrency, availability) and "aggregateRating" when you have reviews.',
    });
  }
  if (crawl.vertical === 'local_business' && !hasAny(LOCAL_BUSINESS_TYPES)) {
    steps.push({
      id: 'add-local-business-schema',
      priority: 'medium',
      title: 'Add LocalBusiness structured data',
      why: 'The site reads as a local business, but no LocalBusiness markup was found: address, opening hours and area served are what "near me" answers rely on.',
      how: 'Add JSON-LD with the most specific LocalBusiness type (e.g. "Dentist", "Restaurant"), "address", "geo", "openingHoursSpecification", "telephone" and "areaServed", matching your Google Business Profile.',
    });
  }

  const wording = categoryWordingGap(crawl, brand, category);
  if (wording !== null) {
    steps.push({
      id: 'category-wording-on-homepage',
      priority: 'high',
      title: `Say "${wording.phrase}" on the homepage`,
      why: `The homepage title, description and main heading do not use the words buyers use for the category (${wording.missing.map((word) => `"${word}"`).join(', ')}). Assistants match brands to a category from how sites describe themselves; a site that never says what it is gets left out of category answers.`,
      how: `Put the category in the <title>, the meta description and the h1, in plain words, e.g. "${brand} — ${wording.phrase} for …", and repeat it in the first paragraph.`,
    });
  }

  if (!crawl.sitemap.present) {
    steps.push({
      id: 'add-sitemap',
      priority: 'medium',
      title: 'Publish an XML sitemap',
      why: 'No sitemap was found (neither listed in robots.txt nor at /sitemap.xml), so crawlers have to discover your pages link by link and may miss the ones that describe what you sell.',
      how: 'Generate /sitemap.xml with every public page (most CMSs and frameworks have a plugin), add a "Sitemap: https://…/sitemap.xml" line to robots.txt and submit it in Google Search Console and Bing Webmaster Tools.',
    });
  }
  if (!crawl.llmsTxt.present) {
    steps.push({
      id: 'add-llms-txt',
      priority: 'low',
      title: 'Add an llms.txt file',
      why: 'No /llms.txt was found. It is a young convention, not a ranking signal any assistant has confirmed, but it costs little and gives language models a clean summary of who you are and which pages matter.',
      how: `Publish /llms.txt in Markdown: "# ${brand}", a one-paragraph summary of what you offer and for whom, then links to your key pages (product, pricing, comparisons, docs).`,
    });
  }
  return steps;
}

function unreachableStep(crawl: CrawlReport): NextStep {
  const how: Record<string, string> = {
    dns_failed: 'Check that the domain resolves publicly (A/AAAA records) and that the website field uses the right domain.',
    timeout: 'Make the homepage answer within a few seconds for a first-time visitor with no cookies; check slow redirects and origin load.',
    deadline: 'Make the homepage answer within a few seconds for a first-time visitor with no cookies; check slow redirects and origin load.',
    too_many_redirects: 'Fix the redirect chain so the homepage is reached in one or two hops (http → https → final URL).',
    http_error: 'Make the homepage answer 200 to a normal browser with no cookies, and check that no firewall rule refuses unknown visitors.',
    not_html: 'Serve the homepage as HTML (Content-Type text/html) with the content in the markup, not only in JavaScript.',
    blocked_host: 'Use the public address of the site: private, local and internal addresses cannot be checked.',
    blocked_address: 'Use the public address of the site: private, local and internal addresses cannot be checked.',
    invalid_url: 'Check the website field: it must be a public http(s) address such as example.com.',
  };
  return {
    id: 'site-unreachable',
    priority: 'high',
    title: 'Make your homepage reachable',
    why: `We could not read ${crawl.website}${crawl.reason === undefined ? '' : `: ${crawl.reason}`}. If our crawler cannot read it, assistants' crawlers probably cannot either, and the site checks (robots.txt, structured data, llms.txt, sitemap) could not run.`,
    how: how[crawl.failureCode ?? ''] ?? 'Check that the homepage loads over https for a first-time visitor, then run the audit again.',
  };
}

// Words that carry no category meaning ("software for teams": "for").
const WORDING_STOP_WORDS = new Set([
  'the', 'a', 'an', 'and', 'or', 'for', 'of', 'to', 'in', 'on', 'with', 'best', 'top', 'my', 'your',
  'el', 'la', 'los', 'las', 'un', 'una', 'y', 'o', 'de', 'del', 'para', 'en', 'con', 'mejor', 'mejores',
]);

/** The category words the homepage's title, description and h1 leave out, when fewer than half appear; null otherwise. */
function categoryWordingGap(crawl: CrawlReport, brand: string, category: string): { phrase: string; missing: string[] } | null {
  const homepage = crawl.homepage;
  if (homepage === undefined) return null;
  // The category as the questions use it: a request like "alternatives to Acme" names no category to put on the page.
  const phrase = brandlessCategory(normalizeWhitespace(category), brand);
  if (phrase === null) return null;
  const words = [...new Set(phrase.split(' ').filter((word) => isContentWord(word)))];
  if (words.length === 0) return null;
  const homepageText = [homepage.title, homepage.description, homepage.openGraph.title, homepage.openGraph.description, ...homepage.h1]
    .filter((text) => text !== undefined)
    .join(' ');
  const present = new Set(homepageText.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').map(stem));
  const missing = words.filter((word) => !present.has(stem(word)));
  const needed = Math.ceil(words.length / 2);
  return words.length - missing.length >= needed ? null : { phrase, missing };
}

function isContentWord(word: string): boolean {
  const folded = fold(word);
  if (WORDING_STOP_WORDS.has(folded)) return false;
  // Short words count only as acronyms ("AI", "HR", "VPN").
  return folded.length >= 3 || /^\p{Lu}{2,}$/u.test(word);
}

/** A crude stem so "shoes" matches "shoe" and "zapatillas" matches "zapatilla". */
function stem(word: string): string {
  const folded = fold(word);
  if (folded.length > 4 && folded.endsWith('es')) return folded.slice(0, -2);
  if (folded.length > 3 && folded.endsWith('s')) return folded.slice(0, -1);
  return folded;
}

function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function answerSteps(input: NextStepsInput, brand: string): NextStep[] {
  const successful = input.findings.reduce((sum, finding) => sum + finding.successfulSamples, 0);
  // Nothing answered: "not measured" says nothing about how often the brand is named.
  if (successful === 0) return [];
  const named = input.findings.reduce((sum, finding) => sum + Math.round(finding.mentionRate * finding.successfulSamples), 0);
  const rate = named / successful;
  const steps: NextStep[] = [];
  const written = normalizeWhitespace(input.category);
  const category = written !== '' && input.language === 'en' ? englishCategoryForms(written).many : written;

  // Only rivals the answers named instead of the brand (platforms and product lines are never in the list).
  const winners = input.competitors.filter((competitor) => competitor.namedInstead > 0).slice(0, MAX_COMPARISON_PAGES);
  const local = input.crawl?.vertical === 'local_business' || (input.location !== undefined && input.location.trim() !== '' && input.crawl?.vertical !== 'saas' && input.crawl?.vertical !== 'ecommerce');
  if (winners.length > 0 && local) {
    // A dentist or a plumber does not publish "X vs Y" pages; local answers weigh reviews and profiles.
    steps.push({
      id: 'comparison-pages',
      priority: rate < OFTEN_MISSED_RATE ? 'high' : 'medium',
      title: `Close the gap with ${joinNames(winners.map((winner) => winner.name))}`,
      why: `When assistants left ${brand} out, they most often named ${winners.map((winner) => `${winner.name} (${winner.namedInstead} answer${winner.namedInstead === 1 ? '' : 's'})`).join(', ')}. Local answers lean on reviews, complete business profiles and pages that say which services are offered where.`,
      how: `Compare your Google Business Profile with theirs (categories, services, photos, opening hours, review count and replies), ask recent customers for reviews, and give every service you offer its own page that names the area you serve.`,
    });
  } else if (winners.length > 0) {
    steps.push({
      id: 'comparison-pages',
      priority: rate < OFTEN_MISSED_RATE ? 'high' : 'medium',
      title: `Publish comparison pages: ${winners.map((winner) => `${brand} vs ${winner.name}`).join(', ')}`,
      why: `When assistants left ${brand} out, they most often named ${winners.map((winner) => `${winner.name} (${winner.namedInstead} answer${winner.namedInstead === 1 ? '' : 's'})`).join(', ')}. Buyers ask assistants to compare exactly these names, and honest comparison pages are what assistants find and quote.`,
      how: `For each, a page at /compare/${slug(brand)}-vs-<competitor> with a fair feature and price table, who each one suits best, and when to choose ${brand}; link them from the homepage or footer and keep them dated and current.`,
    });
  }

  if (rate < RARELY_NAMED_RATE) {
    steps.push({
      id: 'get-listed-where-assistants-look',
      priority: 'high',
      title: `Get ${brand} listed where assistants look for ${category === '' ? 'your category' : category}`,
      why: `Assistants named ${brand} in ${Math.round(rate * 100)}% of ${successful} answers to buyer questions. They recommend the names that recur across sources they trust: reviews, "best of" roundups, directories and discussions.`,
      how: listingAdvice(input.crawl?.vertical),
    });
  }
  return steps;
}

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function listingAdvice(vertical: CrawlReport['vertical'] | undefined): string {
  switch (vertical) {
    case 'saas':
      return 'Get reviewed on G2, Capterra and TrustRadius, pitch the "best … software" roundups that rank for your category, answer category questions on Reddit and community forums, and keep a Wikipedia/Wikidata entry accurate if you qualify.';
    case 'ecommerce':
      return 'Get your products into review sites and "best …" buying guides, list them on the big marketplaces and Google Merchant Center, and collect reviews on your product pages and on Trustpilot.';
    case 'local_business':
      return 'Complete and verify your Google Business Profile, Apple Business Connect and Bing Places, keep name, address and phone identical everywhere, collect reviews, and get into local directories and "best … in <city>" lists.';
    default:
      return 'Get covered by the review sites, "best …" roundups and directories of your category, take part in the communities where buyers ask for recommendations, and keep a Wikipedia/Wikidata entry accurate if you qualify.';
  }
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
}
