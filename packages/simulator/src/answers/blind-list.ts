import { chance } from '../random.js';
import type { AnswerContext } from './context.js';
import { brandsFor } from './context.js';

const DEFAULT_LIST_SIZE = 8;

/** Answers "list the N best …": a numbered markdown list of names, sometimes after a one-line intro. */
export function blindListAnswer(context: AnswerContext): { text: string; brands: string[] } {
  const brands = brandsFor(context, context.classification.listSize ?? DEFAULT_LIST_SIZE).map((brand) => brand.name);
  const lines = brands.map((name, index) => `${index + 1}. ${name}`);
  // Real assistants often add a lead-in even when asked for names only; parsers must cope.
  if (chance(context.random, 0.3)) {
    const intro =
      context.language === 'es'
        ? `Estas son ${brands.length} marcas destacadas de ${context.categoryName}:`
        : `Here are ${brands.length} leading names in ${context.categoryName}:`;
    return { text: `${intro}\n\n${lines.join('\n')}`, brands };
  }
  return { text: lines.join('\n'), brands };
}
