import { chance, integerBetween, pickOne } from '../random.js';
import { capitalizeFirst, dropLeadingArticle, joinNames, withFullStop } from '../text.js';
import type { WorldBrand } from '../world.js';
import type { AnswerContext } from './context.js';
import { brandsFor, describeBrand } from './context.js';

type Style = 'list' | 'table' | 'prose' | 'headed';

interface Pick {
  readonly name: string;
  readonly description: string;
}

/** Answers an open buyer question like an assistant: intro, a bold numbered list of 4–7 brands, a closing pick. */
export function buyerAnswer(context: AnswerContext): { text: string; brands: string[] } {
  const { random } = context;
  const count = integerBetween(random, 4, 7);
  const picks = brandsFor(context, count).map((brand: WorldBrand) => ({ name: brand.name, description: describeBrand(brand, context) }));
  const style = pickOne<Style>(random, ['list', 'list', 'table', 'prose', 'headed']);
  const phrases = context.language === 'es' ? SPANISH : ENGLISH;
  const dash = chance(random, 0.8) ? '—' : '-';
  const list = picks.map((pick, index) => `${index + 1}. **${pick.name}** ${dash} ${withFullStop(capitalizeFirst(dropLeadingArticle(pick.description)))}`);

  const blocks: string[] = [phrases.intro(context, picks.length, random)];
  if (style === 'prose' && picks.length >= 2) blocks.push(phrases.prose(picks, random));
  if (style === 'headed') blocks.push(`### ${phrases.topPicks}`);
  blocks.push(list.join('\n'));
  if (style === 'table') blocks.push(phrases.table(picks));
  if (style === 'headed') blocks.push(`### ${phrases.howToChoose}\n\n${phrases.howToChooseBody}`);
  blocks.push(phrases.closing(picks, random));
  return { text: blocks.join('\n\n'), brands: picks.map((pick) => pick.name) };
}

interface Phrases {
  intro(context: AnswerContext, count: number, random: () => number): string;
  prose(picks: readonly Pick[], random: () => number): string;
  table(picks: readonly Pick[]): string;
  closing(picks: readonly Pick[], random: () => number): string;
  topPicks: string;
  howToChoose: string;
  howToChooseBody: string;
}

/** The first clause of a description, short enough for a table cell. */
function shortReason(description: string): string {
  const text = dropLeadingArticle(description);
  const clause = text.split(/, |; | — /)[0] ?? text;
  // "Affordable" alone says nothing; keep the whole line when the first clause is that short.
  return capitalizeFirst((clause.split(' ').length >= 3 ? clause : text).trim());
}

function nameAt(picks: readonly Pick[], index: number): string {
  return picks[index]?.name ?? picks[0]?.name ?? '';
}

const ENGLISH: Phrases = {
  intro(context, count, random) {
    const category = context.categoryName;
    const forAudience = context.classification.audience ? ` for ${context.classification.audience}` : '';
    return pickOne(random, [
      `Here are some of the strongest options for ${category}${forAudience}:`,
      `There's no single best choice for everyone, but these ${count} are consistently well regarded when it comes to ${category}${forAudience}:`,
      `Great question! The right pick depends on your budget and priorities, but here's a quick rundown of popular ${category}${forAudience}:`,
      `If I were shortlisting ${category}${forAudience}, these are the ones I'd look at first:`,
      `When it comes to ${category}, a few names come up again and again${forAudience ? `, especially${forAudience}` : ''}. Here's a shortlist:`,
    ]);
  },
  prose(picks, random) {
    const [first, second] = [picks[0], picks[1]];
    if (!first || !second) return '';
    const others = picks.slice(2).map((pick) => `**${pick.name}**`);
    return pickOne(random, [
      `Most people start with **${first.name}** or **${second.name}**. ${first.name} is ${first.description}, while ${second.name} is ${second.description}.${others.length > 0 ? ` ${joinNames(others, 'and')} are also worth a look.` : ''}`,
      `**${first.name}** tends to be the default recommendation: it's ${first.description}. **${second.name}** is the usual alternative — ${second.description}.`,
    ]);
  },
  table(picks) {
    const rows = picks.map((pick) => `| **${pick.name}** | ${shortReason(pick.description)} |`);
    return ['**Quick comparison**', '', '| Option | Known for |', '|---|---|', ...rows].join('\n');
  },
  closing(picks, random) {
    const [a, b, c] = [nameAt(picks, 0), nameAt(picks, 1), nameAt(picks, 2)];
    return pickOne(random, [
      `**Bottom line:** if you want the safest all-round choice, start with **${a}**; if price matters more, take a close look at **${b}**.`,
      `If I had to pick one, I'd go with **${a}** — but it's worth comparing it with **${b}** before you decide.`,
      `My recommendation: shortlist **${a}** and **${b}**, try both if you can, and go with the one that feels right for you.`,
      `Overall, **${a}** is the strongest default, while **${b}** and **${c}** are great alternatives depending on your priorities.`,
    ]);
  },
  topPicks: 'Top picks',
  howToChoose: 'How to choose',
  howToChooseBody:
    "Think about your budget, the features you'll actually use and how much time you can spend getting set up. Most of these offer a free trial, a free tier or easy returns, so it's worth testing two or three before committing.",
};

const SPANISH: Phrases = {
  intro(context, count, random) {
    const category = context.categoryName;
    const forAudience = context.classification.audience ? ` para ${context.classification.audience}` : '';
    return pickOne(random, [
      `Estas son algunas de las mejores opciones de ${category}${forAudience}:`,
      `No hay una única opción perfecta para todos, pero estas ${count} son de las más valoradas en ${category}${forAudience}:`,
      `¡Buena pregunta! La elección depende de tu presupuesto y prioridades, pero aquí tienes un resumen de las opciones más populares de ${category}${forAudience}:`,
      `Si tuviera que hacer una lista corta de ${category}${forAudience}, empezaría por estas:`,
    ]);
  },
  prose(picks, random) {
    const [first, second] = [picks[0], picks[1]];
    if (!first || !second) return '';
    const others = picks.slice(2).map((pick) => `**${pick.name}**`);
    return pickOne(random, [
      `La mayoría empieza por **${first.name}** o **${second.name}**. ${first.name} es ${first.description}, mientras que ${second.name} es ${second.description}.${others.length > 0 ? ` También vale la pena mirar ${joinNames(others, 'y')}.` : ''}`,
      `**${first.name}** suele ser la recomendación por defecto: es ${first.description}. **${second.name}** es la alternativa habitual: ${second.description}.`,
    ]);
  },
  table(picks) {
    const rows = picks.map((pick) => `| **${pick.name}** | ${shortReason(pick.description)} |`);
    return ['**Comparativa rápida**', '', '| Opción | Destaca por |', '|---|---|', ...rows].join('\n');
  },
  closing(picks, random) {
    const [a, b, c] = [nameAt(picks, 0), nameAt(picks, 1), nameAt(picks, 2)];
    return pickOne(random, [
      `**En resumen:** si quieres la opción más segura, empieza por **${a}**; si el precio pesa más, fíjate en **${b}**.`,
      `Si tuviera que elegir una, me quedaría con **${a}**, aunque vale la pena compararla con **${b}** antes de decidir.`,
      `Mi recomendación: preselecciona **${a}** y **${b}**, pruébalas si puedes y quédate con la que mejor encaje contigo.`,
      `En general, **${a}** es la opción más sólida, y **${b}** y **${c}** son buenas alternativas según tus prioridades.`,
    ]);
  },
  topPicks: 'Mejores opciones',
  howToChoose: 'Cómo elegir',
  howToChooseBody:
    'Piensa en tu presupuesto, en las funciones que de verdad vas a usar y en cuánto tiempo puedes dedicar a ponerlo en marcha. La mayoría ofrece prueba gratuita, un plan gratis o devoluciones fáciles, así que conviene probar dos o tres antes de decidir.',
};
