import type { PromptLanguage } from './types.js';
import { foldText } from './text.js';

// Function words and measurement verbs that only one of the two languages uses; shared or
// ambiguous words ("a", "no", "me") are left out so they cannot tip the balance.
const SPANISH_WORDS = new Set([
  'el', 'la', 'los', 'las', 'de', 'del', 'que', 'para', 'por', 'con', 'una', 'un', 'es', 'mejor', 'mejores',
  'cual', 'cuales', 'como', 'marca', 'marcas', 'conoces', 'recomendarias', 'recomiendas', 'sobre', 'tienes',
  'puedes', 'en', 'mi', 'su', 'mas', 'empresa', 'empresas', 'dime', 'dame', 'enumera', 'lista', 'nombra',
  'menciona', 'hasta', 'responde', 'solo', 'linea', 'si', 'pero', 'donde', 'quien', 'esta', 'este', 'son',
  'sus', 'nuestra', 'nuestro', 'pequena', 'pequeno', 'negocio', 'tambien', 'muy', 'porque', 'debo', 'deberia',
  'usar', 'busco', 'necesito', 'quiero', 'sabes', 'hablame', 'opcion', 'opciones', 'y', 'o', 'al', 'lo', 'se',
  'cuanto', 'explica', 'razon', 'seguro', 'oido', 'hablar', 'algun', 'alguna', 'buena', 'bueno', 'pymes',
]);
const ENGLISH_WORDS = new Set([
  'the', 'is', 'what', 'which', 'for', 'of', 'and', 'you', 'an', 'to', 'best', 'do', 'would', 'recommend',
  'brand', 'brands', 'list', 'name', 'with', 'my', 'your', 'in', 'or', 'are', 'know', 'how', 'should', 'i',
  'it', 'that', 'this', 'top', 'give', 'tell', 'about', 'answer', 'one', 'per', 'line', 'company', 'good',
  'can', 'could', 'any', 'our', 'we', 'use', 'need', 'looking', 'small', 'business', 'heard', 'familiar',
  'yes', 'unsure', 'reason', 'then', 'up', 'why', 'not', 'sure', 'there', 'have', 'from', 'at',
]);

/** Whether the prompt is Spanish or English, by counting words only one of them uses. */
export function detectLanguage(text: string): PromptLanguage {
  let spanish = /[¿¡]/.test(text) ? 3 : 0;
  spanish += /ñ|[áéíóú]/i.test(text) ? 1 : 0;
  let english = 0;
  for (const word of foldText(text).split(/[^\p{L}\p{N}']+/u)) {
    if (SPANISH_WORDS.has(word)) spanish++;
    if (ENGLISH_WORDS.has(word)) english++;
  }
  return spanish > english ? 'es' : 'en';
}
