import { findBrand, brandKey } from '../lookup.js';
import { pickOne } from '../random.js';
import type { AnswerContext } from './context.js';
import { describeBrand } from './context.js';

/** Answers "do you know brand X?": `Yes — …` with a description for world brands, `No — …` otherwise. */
export function recognitionAnswer(context: AnswerContext): { text: string; brands: string[] } {
  const written = context.classification.brand ?? '';
  const known = written ? findBrand(written, context.classification.categoryId) : undefined;
  const spanish = context.language === 'es';
  if (!known) {
    const name = written || (spanish ? 'esa marca' : 'that brand');
    const text = spanish
      ? pickOne(context.random, [
          `No — no conozco una marca llamada «${name}». Puede que sea una empresa pequeña, regional o reciente; si me compartes su web o a qué se dedica, puedo ayudarte a evaluarla.`,
          `No — no tengo información fiable sobre «${name}», así que no puedo confirmar qué ofrece. Te sugiero revisar su web y reseñas recientes de clientes.`,
        ])
      : pickOne(context.random, [
          `No — I'm not familiar with a brand called "${name}". It may be a small, regional or newer company; if you share its website or what it does, I can help you evaluate it.`,
          `No — I don't have reliable information about "${name}", so I can't confirm what it offers. I'd suggest checking its website and recent customer reviews.`,
        ]);
    return { text, brands: [] };
  }

  const canonical = known.brand.name;
  // Answer with the brand's current name, keeping the one the prompt used when it differs ("Brevo (Sendinblue)").
  const name = brandKey(written) === brandKey(canonical) ? canonical : `${canonical} (${written})`;
  const description = describeBrand(known.brand, { ...context, categoryName: known.category.name[context.language] });
  const categoryName = known.category.name[context.language];
  const text = spanish
    ? pickOne(context.random, [
        `Sí — ${name} es ${description}.`,
        `Sí — conozco ${name}: es ${description}. Es una opción habitual cuando se habla de ${categoryName}.`,
        `Sí — ${name} es ${description}. Suele aparecer entre las opciones más mencionadas de ${categoryName}.`,
      ])
    : pickOne(context.random, [
        `Yes — ${name} is ${description}.`,
        `Yes — I know ${name}. It's ${description}, and it comes up often in discussions of ${categoryName}.`,
        `Yes — ${name} is ${description}. It's one of the better-known names in ${categoryName}.`,
      ]);
  return { text, brands: [canonical] };
}
