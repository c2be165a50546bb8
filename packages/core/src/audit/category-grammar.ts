// How a category phrase reads inside an English question: "dentist in Madrid" is a singular count noun
// ("which dentists", "choosing a dentist"), "running shoes" is already plural, "CRM software" is a mass noun
// ("which CRM software"). The buyer-question templates pick the form that is grammatical for each.

/** The grammatical forms of one category phrase. */
export interface CategoryForms {
  /** As written ("dentist in Madrid"). */
  readonly asWritten: string;
  /** Plural, or unchanged for a mass noun ("dentists in Madrid", "CRM software", "running shoes"). */
  readonly many: string;
  /** One of them, with its article where English needs one ("a dentist in Madrid", "CRM software", "running shoes"). */
  readonly choosing: string;
  /** A single item with an article ("a dentist in Madrid", "a running shoe", "a CRM software option"). */
  readonly one: string;
  /** Whether the head noun is a mass noun (no plural, "is" not "are"). */
  readonly mass: boolean;
}

// Words after which the head noun has ended ("dentist in Madrid", "software for agencies").
const HEAD_END = new Set(['in', 'near', 'for', 'with', 'at', 'from', 'on', 'around', 'by', 'to', 'of', 'under']);
// Head nouns with no plural ("which CRM software", not "which CRM softwares").
const MASS_NOUNS = new Set([
  'software', 'hardware', 'equipment', 'insurance', 'furniture', 'advice', 'coffee', 'tea', 'clothing', 'apparel', 'jewelry',
  'jewellery', 'luggage', 'gear', 'food', 'wine', 'beer', 'skincare', 'makeup', 'haircare', 'footwear', 'eyewear', 'hosting',
  'banking', 'accounting', 'marketing', 'training', 'coaching', 'consulting', 'cleaning', 'catering', 'tutoring', 'childcare',
  'healthcare', 'security', 'storage', 'delivery', 'support', 'bedding', 'luggage', 'music', 'news', 'research', 'legal',
  'payroll', 'analytics', 'data', 'feedback', 'help', 'information', 'care', 'insurance', 'transport', 'shipping', 'lodging',
  'ecommerce', 'e-commerce', 'fashion', 'media', 'seo', 'ai', 'crm', 'erp', 'it', 'hr', 'pet food', 'dog food', 'cat food',
]);
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  person: 'people', man: 'men', woman: 'women', child: 'children', foot: 'feet', tooth: 'teeth', mouse: 'mice',
};
const IRREGULAR_PLURAL_FORMS = new Set(Object.values(IRREGULAR_PLURALS));

/** The English forms of a category phrase; non-English phrases should not be passed here. */
export function englishCategoryForms(phrase: string): CategoryForms {
  const words = phrase.trim().split(/\s+/u).filter((word) => word.length > 0);
  if (words.length === 0) return { asWritten: phrase, many: phrase, choosing: phrase, one: phrase, mass: true };
  const endIndex = words.findIndex((word, index) => index > 0 && HEAD_END.has(word.toLowerCase()));
  const headIndex = (endIndex === -1 ? words.length : endIndex) - 1;
  const head = words[headIndex] ?? '';
  const replaceHead = (replacement: string): string => [...words.slice(0, headIndex), replacement, ...words.slice(headIndex + 1)].join(' ');
  const lower = head.toLowerCase();
  const asWritten = words.join(' ');
  // A head that is not a plain word ("alert(7)</script>", "2024") has no English number to change.
  if (!/^\p{L}[\p{L}'’-]*$/u.test(head)) return { asWritten, many: asWritten, choosing: asWritten, one: asWritten, mass: true };
  if (MASS_NOUNS.has(lower) || /ing$/u.test(lower) || /^[A-Z0-9]{2,5}$/u.test(head)) {
    // "CRM software", "house cleaning", "CRM": no plural; one of them is an "option".
    return { asWritten, many: asWritten, choosing: asWritten, one: withArticle(`${asWritten} option`), mass: true };
  }
  if (isPlural(lower)) {
    const single = replaceHead(matchCase(head, singularOf(lower)));
    return { asWritten, many: asWritten, choosing: asWritten, one: withArticle(single), mass: false };
  }
  const plural = replaceHead(matchCase(head, pluralOf(lower)));
  return { asWritten, many: plural, choosing: withArticle(asWritten), one: withArticle(asWritten), mass: false };
}

function isPlural(word: string): boolean {
  if (IRREGULAR_PLURAL_FORMS.has(word)) return true;
  return word.length > 3 && word.endsWith('s') && !/(?:ss|us|is|ics|ws)$/u.test(word);
}

/** "dentist" → "dentists", "agency" → "agencies", "coach" → "coaches", "person" → "people". */
export function pluralOf(word: string): string {
  const irregular = IRREGULAR_PLURALS[word];
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]y$/u.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/u.test(word)) return `${word}es`;
  return `${word}s`;
}

/** "shoes" → "shoe", "agencies" → "agency", "coaches" → "coach", "people" → "person". */
export function singularOf(word: string): string {
  const irregular = Object.entries(IRREGULAR_PLURALS).find(([, plural]) => plural === word)?.[0];
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]ies$/u.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|zzes|sses)$/u.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function withArticle(phrase: string): string {
  // "an hour" and "a unicorn" are rare in categories; the first letter decides.
  return `${/^[aeiou]/iu.test(phrase) && !/^(?:uni|use|eu)/iu.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

function matchCase(original: string, replacement: string): string {
  if (original === original.toUpperCase() && /\p{Lu}/u.test(original)) return replacement.toUpperCase();
  return /^\p{Lu}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}
