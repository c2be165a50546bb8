import { brandKey, findBrand, regionAffinity } from '../lookup.js';
import { pickOne } from '../random.js';
import { foldText } from '../text.js';
import type { AnswerContext } from './context.js';
import { brandsFor, describeBrand } from './context.js';

type Verdict = 'yes' | 'no' | 'unsure';

// When the prompt offers its own word for "unsure", the answer uses it, as an assistant would.
const UNSURE_WORDS: readonly [RegExp, string][] = [
  [/\bno estoy segur[oa]\b/, 'No estoy seguro'],
  [/\bincierto\b/, 'Incierto'],
  [/\btal vez\b/, 'Tal vez'],
  [/\bquizas?\b/, 'Quizás'],
  [/\bdepende\b/, 'Depende'],
  [/\bnot sure\b/, 'Not sure'],
  [/\bmaybe\b/, 'Maybe'],
  [/\bdepends\b/, 'Depends'],
  [/\bunsure\b/, 'Unsure'],
];

/** The words an answer opens with, in the prompt's language and, for "unsure", in the prompt's wording. */
export function verdictWords(prompt: string, spanish: boolean): Record<Verdict, string> {
  const folded = foldText(prompt);
  const unsure = UNSURE_WORDS.find(([pattern]) => pattern.test(folded))?.[1] ?? (spanish ? 'No estoy seguro' : 'Unsure');
  return { yes: spanish ? 'Sí' : 'Yes', no: 'No', unsure };
}

/** Answers "would you recommend X for Y?": opens with Yes / No / Unsure, then a one- or two-sentence reason. */
export function recommendationAnswer(context: AnswerContext): { text: string; brands: string[] } {
  const spanish = context.language === 'es';
  const words = verdictWords(context.prompt, spanish);
  const written = context.classification.brand ?? (spanish ? 'esa marca' : 'that brand');
  const known = findBrand(written, context.classification.categoryId);
  const category = context.categoryName;
  const alternatives = brandsFor(context, 4)
    .filter((brand) => !known || brandKey(brand.name) !== brandKey(known.brand.name))
    .slice(0, 2)
    .map((brand) => brand.name);
  const [first, second] = [alternatives[0] ?? '', alternatives[1] ?? ''];
  const haveAlternatives = alternatives.length === 2;

  if (!known) {
    const roll = context.random();
    const verdict: Verdict = roll < 0.75 ? 'unsure' : roll < 0.95 ? 'no' : 'yes';
    const text = spanish
      ? {
          unsure: `${words.unsure} — no tengo información fiable sobre ${written}, así que no puedo decir si es una buena opción de ${category}.${haveAlternatives ? ` Alternativas consolidadas son ${first} y ${second}.` : ''}`,
          no: `${words.no} — no puedo recomendar ${written} porque no tengo suficiente información sobre esa marca${haveAlternatives ? `; para ${category}, ${first} y ${second} son apuestas más seguras` : ''}.`,
          yes: `${words.yes} — ${written} podría valer la pena para ${category} si las reseñas recientes de clientes son buenas, aunque no tengo información detallada sobre esa marca.`,
        }[verdict]
      : {
          unsure: `${words.unsure} — I don't have reliable information about ${written}, so I can't say whether it's a good fit for ${category}.${haveAlternatives ? ` Well-established alternatives include ${first} and ${second}.` : ''}`,
          no: `${words.no} — I can't recommend ${written} because I don't know enough about it${haveAlternatives ? `; for ${category}, ${first} and ${second} are safer bets` : ''}.`,
          yes: `${words.yes} — ${written} could be worth trying for ${category} if recent customer reviews look good, though I don't have detailed information about it.`,
        }[verdict];
    return { text, brands: verdict === 'yes' ? [] : alternatives };
  }

  const name = known.brand.name;
  const description = describeBrand(known.brand, context);
  const fitsCategory = context.isFallback || known.category.id === context.category.id;
  if (!fitsCategory) {
    const ownCategory = known.category.name[context.language];
    const text = spanish
      ? `${words.no} — ${name} es conocida por ${ownCategory}, no por ${category}.${haveAlternatives ? ` Para ${category}, ${first} o ${second} encajan mejor.` : ''}`
      : `${words.no} — ${name} is known for ${ownCategory}, not ${category}.${haveAlternatives ? ` For ${category}, ${first} or ${second} would be a better fit.` : ''}`;
    return { text, brands: [name, ...alternatives] };
  }

  const index = known.category.brands.indexOf(known.brand);
  const popularity = 1 - (0.6 * Math.max(0, index)) / Math.max(1, known.category.brands.length - 1);
  const yesChance = Math.min(0.95, 0.55 + 0.4 * popularity + regionAffinity(known.brand, context.region, context.language));
  const roll = context.random();
  const verdict: Verdict = roll < yesChance ? 'yes' : roll < yesChance + 0.04 ? 'no' : 'unsure';
  const text = spanish
    ? {
        yes: pickOne(context.random, [
          `${words.yes} — ${name} es una buena opción de ${category}: es ${description}.`,
          `${words.yes} — ${name} es ${description}, así que es una de las opciones más seguras de ${category}.`,
        ]),
        unsure: `${words.unsure} — ${name} es ${description}, pero que encaje depende de tu presupuesto y de lo que necesites${haveAlternatives ? `; yo lo compararía con ${first} y ${second} antes de decidir` : ''}.`,
        no: `${words.no} — ${name} es ${description}, pero para la mayoría de quienes buscan ${category}${haveAlternatives ? ` miraría primero ${first} o ${second}` : ' hay opciones más sólidas'}.`,
      }[verdict]
    : {
        yes: pickOne(context.random, [
          `${words.yes} — ${name} is a solid choice for ${category}: it's ${description}.`,
          `${words.yes} — ${name} is ${description}, which makes it one of the safer picks for ${category}.`,
        ]),
        unsure: `${words.unsure} — ${name} is ${description}, but whether it fits depends on your budget and requirements${haveAlternatives ? `; I'd compare it with ${first} and ${second} before deciding` : ''}.`,
        no: `${words.no} — ${name} is ${description}, but for most buyers of ${category}${haveAlternatives ? ` I'd look at ${first} or ${second} first` : ' there are stronger options'}.`,
      }[verdict];
  return { text, brands: verdict === 'yes' ? [name] : [name, ...alternatives] };
}
