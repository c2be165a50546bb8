import { blindListAnswer } from './answers/blind-list.js';
import { buyerAnswer } from './answers/buyer.js';
import type { AnswerContext } from './answers/context.js';
import { recognitionAnswer } from './answers/recognition.js';
import { recommendationAnswer } from './answers/recommendation.js';
import { classifyPrompt } from './classify.js';
import type { PromptClassification } from './classify.js';
import { inventCategory } from './invented.js';
import { categoryById, detectRegion } from './lookup.js';
import { pickOne, seededRandom } from './random.js';
import type { WireProvider } from './types.js';
import { modelFamily } from './rank.js';

export interface ComposeInput {
  readonly prompt: string;
  /** The model id as requested (a dated snapshot shares its family's answers). */
  readonly model: string;
  readonly provider: WireProvider;
  readonly seed: number;
  /** How many times this (prompt, model) was answered before (0 for the first call). */
  readonly counter: number;
  /** Brand mention rates set on the simulator (lower-cased name -> probability of being named per answer). */
  readonly brandRates?: ReadonlyMap<string, number> | undefined;
}

export interface ComposedAnswer {
  readonly text: string;
  readonly classification: PromptClassification;
  /** The brands the answer names, in order (empty for a clarifying question or an unknown brand). */
  readonly brands: readonly string[];
}

const GENERIC_CATEGORY_NAME = { en: 'this kind of product', es: 'este tipo de producto' } as const;

/** Writes the answer to one prompt, reproducibly from (seed, provider, model, prompt, counter). */
export function composeAnswer(input: ComposeInput): ComposedAnswer {
  const classification = classifyPrompt(input.prompt);
  const language = classification.language;
  const random = seededRandom(input.seed, 'answer', input.provider, modelFamily(input.model), input.prompt, input.counter);
  const matched = classification.categoryId ? categoryById(classification.categoryId) : undefined;
  const phrase = classification.category;

  if (!matched && classification.kind === 'buyer_question' && !isAnswerable(input.prompt, phrase)) {
    return { text: clarifyingQuestion(language, random), classification, brands: [] };
  }

  const category = matched ?? inventCategory(input.prompt, phrase, language);
  const context: AnswerContext = {
    prompt: input.prompt,
    classification,
    language,
    seed: input.seed,
    provider: input.provider,
    model: input.model,
    counter: input.counter,
    random,
    category,
    isFallback: !matched,
    categoryName: matched ? matched.name[language] : inventedCategoryName(input.prompt, phrase, language),
    region: detectRegion(input.prompt),
    brandRates: input.brandRates,
  };
  const answer = {
    recognition: recognitionAnswer,
    recommendation: recommendationAnswer,
    blind_list: blindListAnswer,
    buyer_question: buyerAnswer,
  }[classification.kind](context);
  return { text: answer.text, classification, brands: answer.brands };
}

// "in Madrid", "near Austin", "en Sevilla", "cerca de Bogotá": a place named with a capital.
const PLACE = /\b(?:in|near|en|cerca\s+de)\s+(\p{Lu}[\p{L}'’-]*(?:\s+(?:de\s+|del\s+)?\p{Lu}[\p{L}'’-]*)*)/u;

/** How an answer names an unknown category: the prompt's phrase with the place it names, said once. */
function inventedCategoryName(prompt: string, phrase: string | undefined, language: 'en' | 'es'): string {
  if (phrase === undefined) return GENERIC_CATEGORY_NAME[language];
  const place = PLACE.exec(prompt)?.[1];
  const bare = phrase.replace(/\s+(?:in|near|en|cerca\s+de)\s+.*$/u, '').trim();
  if (place === undefined || bare === '') return phrase;
  return `${bare} ${language === 'es' ? 'en' : 'in'} ${place}`;
}

/** Whether a buyer question says enough to answer (at least two words, one of them the category). */
function isAnswerable(prompt: string, phrase: string | undefined): boolean {
  const words = prompt.match(/\p{L}{2,}/gu) ?? [];
  return phrase !== undefined && words.length >= 2 && /[aeiouáéíóúy]/iu.test(phrase);
}

function clarifyingQuestion(language: 'en' | 'es', random: () => number): string {
  return language === 'es'
    ? pickOne(random, [
        '¿Podrías darme un poco más de contexto? Dime qué tipo de producto o servicio buscas, tu presupuesto y dónde estás, y te sugiero opciones concretas.',
        'No estoy seguro de entender la pregunta. ¿Qué estás buscando exactamente y para qué lo necesitas?',
      ])
    : pickOne(random, [
        "Could you give me a bit more context? Tell me what kind of product or service you're looking for, your budget and where you are, and I'll suggest specific options.",
        "I'm not sure I understand the question. What exactly are you looking for, and what will you use it for?",
      ]);
}
