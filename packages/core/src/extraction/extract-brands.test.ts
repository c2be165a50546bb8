import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBlocks } from './answer-blocks.js';
import { restoreLineBreaks } from './restore-line-breaks.js';
import { restoreTables } from './restore-table.js';
import { nameParts, readCandidates, shoppingTitleEnd } from './candidates.js';
import { answerContext, candidateFeatures } from './features.js';
import { knowledge } from './knowledge.js';
import { isGermanCompound } from './words.js';
import { explainExtraction, extractBrands } from './extract-brands.js';

// Answers written for these tests in the shapes assistants use; none comes from the dev set.
const HEADINGS = [
  'Here are the best project management tools for a small marketing team:',
  '',
  '### 1. Asana — Best Overall',
  'Asana balances structure and flexibility, and it integrates with Slack, Google Drive and HubSpot.',
  '',
  '**Pros:** polished interface, strong automations',
  '',
  '### 2. Trello – Best for Simple Boards',
  'Kanban boards that anyone can learn in minutes.',
  '',
  '### 3. ClickUp: Best Value',
  'Packs docs, goals and whiteboards into one app.',
  '',
  '### 4. monday.com (Best for Client Work)',
  'Colourful boards and dashboards for agencies.',
  '',
  '## Bottom Line',
  "Start with Asana. On a tight budget, ClickUp's free tier goes further than Trello's.",
].join('\n');

const SHOPPING = [
  'The best carry-on luggage balances durability, weight and organization [1][2].',
  '',
  '🔝 **Top Picks for Durable Carry-On Luggage**',
  '',
  '- **Samsonite Winfield 3 DLX Hardside Carry-On** – Polycarbonate shell and spinner wheels; about $160 [1].',
  '- **Away – The Bigger Carry-On** – Slightly larger capacity with a compression system [2].',
  '- **Monos Carry-On Plus** – Minimalist design, vegan leather handles [2].',
  '',
  '**Budget-Friendly**',
  '- **Amazon Basics 21-Inch Hardside Spinner** – Under $70 and surprisingly sturdy [3].',
  '',
  'Sources:',
  '[1] Wirecutter – The Best Carry-On Luggage',
  '[2] cntraveler.com',
  "[3] Tom's Guide",
].join('\n');

const TABLE = [
  '| Watch | Battery | Best for | Price |',
  '|---|---|---|---|',
  '| Garmin Forerunner 965 | 23 days | Serious training | $599 |',
  '| Apple Watch Ultra 2 | 36 hours | iPhone users | $799 |',
  '| COROS Vertix 2S | 40 days | Mountain runners | $699 |',
  '',
  'All three track VO2 max, HRV and sleep.',
].join('\n');

describe('answer blocks', () => {
  it('reads headings, list items, table cells and inline spans from the markdown tree with their offsets', () => {
    const answer = '## Picks\n\n- **Notion** – docs, see [site](https://notion.so)\n\n| Tool | Price |\n|---|---|\n| Coda | $10 |';
    const blocks = readBlocks(answer);
    expect(blocks.map((block) => [block.kind, block.text])).toEqual([
      ['heading', 'Picks'],
      ['paragraph', 'Notion – docs, see site'],
      ['cell', 'Tool'],
      ['cell', 'Price'],
      ['cell', 'Coda'],
      ['cell', '$10'],
    ]);
    const item = blocks[1];
    expect(item?.list).toMatchObject({ ordered: false, depth: 0, index: 0, firstParagraph: true });
    expect(item?.section).toBe('Picks');
    expect(item?.spans.map((span) => [span.kind, item.text.slice(span.start, span.end), span.url])).toEqual([
      ['strong', 'Notion', undefined],
      ['link', 'site', 'https://notion.so'],
    ]);
    expect(answer.slice(item?.offsets[0], (item?.offsets[0] ?? 0) + 6)).toBe('Notion');
    expect(blocks[4]?.table).toMatchObject({ row: 1, column: 0, header: 'Tool' });
  });

  it('puts lost line breaks back before list markers and headings of a one-line answer', () => {
    const flat = `${'Here are three picks for you to consider today, in order. '.repeat(4)}1. Garmin Forerunner 265 – light. 2. COROS PACE 3 – cheap. ### Verdict Go with Garmin.`;
    const restored = restoreLineBreaks(flat);
    expect(restored).toContain('\n1. Garmin Forerunner 265');
    expect(restored).toContain('\n2. COROS PACE 3');
    expect(restored).toContain('\n\n### Verdict');
    expect(restoreLineBreaks('Short answer. 1. Not a list.')).toBe('Short answer. 1. Not a list.');
  });

  it('makes list items again of headings an emoji opens after a sentence, two or more of them', () => {
    const intro = 'There is no single best bank for everyone, it depends on your income and how you travel. ';
    const medals = `${intro}${intro}These come up most often. 🥇 Zorbank (formerly Zorblax Bank): cheapest day to day. It has no fees. 🥈 Quentyneo — best for savers. It pays well.`;
    expect(restoreLineBreaks(medals).split('\n').slice(1)).toEqual(['- 🥇 Zorbank (formerly Zorblax Bank): cheapest day to day. It has no fees.', '- 🥈 Quentyneo — best for savers. It pays well.']);
    const heads = explainExtraction(medals).candidates.filter((candidate) => candidate.slot === 'list_head').map((candidate) => candidate.surface);
    expect(heads).toEqual(['Zorbank', 'Quentyneo']);
    // one emoji alone may be a flourish inside the text
    const single = `${intro}${intro}Pick one. 🎉 Enjoy the savings and the free card.`;
    expect(restoreLineBreaks(single)).toBe(single);
  });

  it('reads a field label with a space before its colon, as French writes it', () => {
    const flat = `${'Voici les meilleures options selon votre usage et vos revenus. '.repeat(2)}1. Zorbank Pour qui : les petits budgets. Points forts : carte gratuite. 2. Quentyneo Pour qui : les épargnants. Points forts : assurance-vie.`;
    const restored = restoreLineBreaks(flat);
    expect(restored).toContain('\n1. Zorbank\nPour qui');
    expect(restored).toContain('\n2. Quentyneo\nPour qui');
    const heads = explainExtraction(flat).candidates.filter((candidate) => candidate.slot === 'list_head').map((candidate) => candidate.surface);
    expect(heads).toEqual(['Zorbank', 'Quentyneo']);
  });

  it('makes list items again of names followed by a dash right after a sentence, three or more of them', () => {
    const items = 'Which one depends on what you need most from it, so here is the short version: Zorblax – Best for building a daily habit. Quenty – Better grammar drills. zimbo – Book lessons with tutors. Nothing beats talking. Initech Pro – Free flashcards.';
    expect(restoreLineBreaks(items).split('\n')).toEqual([
      'Which one depends on what you need most from it, so here is the short version:',
      '- Zorblax – Best for building a daily habit.',
      '- Quenty – Better grammar drills.',
      '- zimbo – Book lessons with tutors. Nothing beats talking.',
      '- Initech Pro – Free flashcards.',
    ]);
    // a group's label run into its first item; a numbered item is left as it is
    const grouped = 'There are good picks at every price, so here they are by budget: Free options Zorblax Studio – Fast and free, with colour tools. Quenty Cut – Easy captions and templates for short videos. Paid options Initech Pro – The standard. 1. Acme Edit – One-time price.';
    expect(restoreLineBreaks(grouped).split('\n')).toEqual([
      'There are good picks at every price, so here they are by budget:',
      '- Free options',
      '  - Zorblax Studio – Fast and free, with colour tools.',
      '- Quenty Cut – Easy captions and templates for short videos.',
      '- Paid options',
      '  - Initech Pro – The standard.',
      '1. Acme Edit – One-time price.',
    ]);
    // a title's abbreviation is not the end of a sentence: "Mr. Quenty Noodles" is one name
    const titled = 'Everyone has a favourite, and after a lot of bowls across the city these are the places people keep going back to, week after week, whatever the queue: Zorblax – Rich broth and a long wait at dinner. Initech Ramen – Tiny and busy. Mr. Quenty Noodles – Spicy miso and a vegan bowl.';
    expect(restoreLineBreaks(titled).split('\n').at(-1)).toBe('- Mr. Quenty Noodles – Spicy miso and a vegan bowl.');
    const two = 'Which one depends on what you need most from it, and on how much time you have each week to practise with it. Overall – it depends. Zorblax – fine. The rest is up to you and your budget, really.';
    expect(restoreLineBreaks(two)).toBe(two);
  });

  it('tells what a heading or a lone bold line stands over: deeper headings, a list of names or of details, text', () => {
    const answer = [
      '## Downtown', '', '### 1. Zorblax Café', 'Good coffee.', '', '### 2. Quenty Books', '', '- **Why it stands out:** old maps', '- **Price:** low', '',
      '**Riverside**', '', '- **Zorblax Pizza**', '- **Quenty Deli**', '',
    ].join('\n');
    const over = readBlocks(answer).filter((block) => block.over !== undefined).map((block) => [block.text, block.over]);
    expect(over).toEqual([['Downtown', 'headings'], ['1. Zorblax Café', 'text'], ['2. Quenty Books', 'details'], ['Riverside', 'names']]);
  });

  it('reads a short line ending in a colon as the section of what follows, as a lone bold line is', () => {
    const blocks = readBlocks('Acme is the pick.\n\nSources:\n1. example.com - "A review"\n\nOur verdict, after a month of testing: Acme.');
    expect(blocks.find((block) => block.text.startsWith('example.com'))?.section).toBe('Sources:');
    // a sentence with a colon inside is not a lead-in
    expect(blocks.at(-1)?.section).toBe('Sources:');
    expect(readBlocks('We tested these for a month and liked them all:\n- Acme').at(-1)?.section).toBe('');
  });

  it('puts lost breaks back before field labels and numbered items, and makes the names before repeated labels list items', () => {
    const flat =
      'Choosing a CRM depends on your budget and team size. Here are the top options: Acme CRM Best for: Startups and growing teams Price: Free plan; paid from $20/month ' +
      'Cons: Gets expensive at scale Globex Best for: Sales-focused teams Price: From $14/user/month Initech Suite Best for: Budget-conscious businesses Price: $9/month\n';
    const restored = restoreLineBreaks(flat);
    expect(restored).toContain('top options:\n- **Acme CRM**\nBest for: Startups');
    expect(restored).toContain('\nPrice: Free plan');
    expect(restored).toContain('at scale\n- **Globex**\nBest for:');
    expect(restored).toContain('\n- **Initech Suite**\nBest for:');
    const heads = explainExtraction(flat).candidates.filter((candidate) => candidate.slot === 'list_head').map((candidate) => candidate.surface);
    expect(heads).toEqual(['Acme CRM', 'Globex', 'Initech Suite']);
    expect(explainExtraction(flat).candidates.some((candidate) => /\sBest$/u.test(candidate.surface))).toBe(false);
    // numbers that count 1, 2, 3 open items even when the item before ends without a full stop
    const numbered = `${'Some context about the picks that follows here. '.repeat(4)}1. Acme Cloud fast and cheap 2. Globex Drive more storage 3. Initech Box for teams`;
    expect(restoreLineBreaks(numbered)).toContain('cheap\n2. Globex Drive more storage\n3. Initech Box');
    // a name that opens with a lower-case letter and has a capital inside counts too ("3. iName")
    const inner = `${'Some context about the picks that follows here. '.repeat(4)}1. Acme Cloud fast and cheap 2. eGlobex more storage 3. Initech Box for teams`;
    expect(restoreLineBreaks(inner)).toContain('cheap\n2. eGlobex more storage\n3. Initech Box');
    // a lone number is not a list
    expect(restoreLineBreaks(`${'Plenty of words in one long line of prose here. '.repeat(5)}It costs 2. Then more.`)).not.toContain('\n');
  });

  it('puts breaks back before a field label written for each pick, label words or not', () => {
    const flat =
      'For a small support team these are the strongest fits: 1. Acme Desk Why it stands out: The most mature ticketing system. Price: From $55 a month ' +
      'Watch out for: Setup takes effort. 2. Globex Help Why it stands out: Cheaper, with a free plan. Price: Free for two agents Watch out for: A busier interface.\n';
    const restored = restoreLineBreaks(flat);
    expect(restored).toContain('fits:\n1. Acme Desk\nWhy it stands out: The most mature');
    expect(restored).toContain('\n2. Globex Help\nWhy it stands out: Cheaper');
    expect(restored).toContain('\nWatch out for: A busier interface.');
    expect(extractBrands(flat)).toEqual(['Acme Desk', 'Globex Help']);
  });
});

describe('candidates', () => {
  it('cuts numbering, emoji, taglines and parentheticals off a slot, and splits joined names', () => {
    const cut = (text: string) => nameParts(text, 0, text.length).map((part) => [part.text, part.cut]);
    expect(cut('1. HubSpot CRM — Best Overall')).toEqual([['HubSpot CRM', 'before_separator']]);
    expect(cut('🥇 Apple TV 4K (3rd gen)')).toEqual([['Apple TV 4K', 'whole']]);
    expect(cut('Best for Bright Rooms: TCL QM8')).toEqual([
      ['Best for Bright Rooms', 'before_separator'],
      ['TCL QM8', 'after_label'],
    ]);
    expect(cut('Notion, Obsidian and Bear')).toEqual([
      ['Notion', 'list_part'],
      ['Obsidian', 'list_part'],
      ['Bear', 'list_part'],
    ]);
    expect(cut('Marketing site, want simple stats')).toEqual([['Marketing site, want simple stats', 'whole']]);
  });

  it('reads capitalised runs in prose, dropping a leading function word only at a sentence start', () => {
    const surfaces = readCandidates(readBlocks('The Verge tested it. We compared Bank of America with The Home Depot card.')).map((candidate) => [
      candidate.surface,
      candidate.sentenceStart,
    ]);
    expect(surfaces).toEqual([
      ['Verge', true],
      ['We', true],
      ['Bank of America', false],
      ['The Home Depot', false],
    ]);
  });

  it("drops a sentence's opening verb and its article from a run: \"Using the Acme adapter\"", () => {
    const surfaces = readCandidates(readBlocks('Using the Zorblax adapter, you can deploy anywhere. Replaces the Quenty Stick, now discontinued. Quenty the Great is local.')).map(
      (candidate) => [candidate.surface, candidate.sentenceStart],
    );
    expect(surfaces).toEqual([
      ['Zorblax', false],
      ['Quenty Stick', false],
      ['Quenty the Great', true],
    ]);
  });

  it('ends a run before a comparative, superlative or adverb that opens the next sentence, and cuts possessives off', () => {
    // a bold head and its description, once the markdown is gone: "Zorblax Cloud" then "Widest coverage …"
    const flat = "Zorblax Cloud Widest coverage in the region. Quenty Drive Already owns the market. We rate Quenty Drive Pro highly. Fly Zorblax Airways' Sky Suite, or Quenty Airlines' lounges.";
    const candidates = readCandidates(readBlocks(flat));
    const surfaces = candidates.map((candidate) => candidate.surface);
    expect(surfaces).toContain('Zorblax Cloud');
    expect(surfaces).not.toContain('Zorblax Cloud Widest');
    // a name that the next sentence follows at once is marked: a head whose line break was lost
    expect(candidates.filter((candidate) => candidate.beforeSentence === true).map((candidate) => candidate.surface)).toEqual(['Zorblax Cloud', 'Quenty Drive']);
    expect(surfaces).toContain('Quenty Drive');
    expect(surfaces).not.toContain('Quenty Drive Already');
    // a name ending in a word that is not one ("Pro") keeps it
    expect(surfaces).toContain('Quenty Drive Pro');
    // the owner and the owned are two names, without the possessive's apostrophe
    expect(surfaces).toContain('Zorblax Airways');
    expect(surfaces).toContain('Sky Suite');
    expect(surfaces).toContain('Quenty Airlines');
    // an adjective that opens the next sentence ends a run too, a model's tier does not
    const adjectives = readCandidates(readBlocks('Zorblax Forms Strong and simple. Quenty Box Ultra is the big one.')).map((candidate) => candidate.surface);
    expect(adjectives).toContain('Zorblax Forms');
    expect(adjectives).toContain('Quenty Box Ultra');
    // "The" before a capitalised word and a lower-case one opens the description, not part of the name
    const described = readCandidates(readBlocks('Best for winter: Zorblax Boot 566 The Classic boot with a warm lining. Read Lord of The Rings tonight.')).map((candidate) => candidate.surface);
    expect(described).toContain('Zorblax Boot 566');
    expect(described).not.toContain('Zorblax Boot 566 The Classic');
    // … but not after a connector, where it is a title's own article
    expect(described).toContain('Lord of The Rings');
  });

  it("keeps a possessive that names a business, in prose and in a name slot: \"Zorblax's Pizza\", \"- Quenty's – …\"", () => {
    const prose = readCandidates(readBlocks("Locals swear by Zorblax's Pizza and Quenty's Bakery & Café, while Initech's new plan is cheaper.")).map((candidate) => candidate.surface);
    expect(prose).toEqual(['Locals', "Zorblax's Pizza", "Quenty's Bakery & Café", 'Initech']);
    const heads = readCandidates(readBlocks("- Quenty's – a Victorian pub with snugs\n- Globex's – live music most nights")).filter((candidate) => candidate.slot === 'list_head');
    expect(heads.map((candidate) => candidate.surface)).toEqual(["Quenty's", "Globex's"]);
  });

  it('ends a shop\'s product title at the model, before its descriptions, sizes and capacities', () => {
    const titles: Array<[string, string]> = [
      ['Zorblax Q45 Adaptive Noise Cancelling Headphones, 50H Playtime', 'Zorblax Q45'],
      ['Quenty Phone 10 Pro 256GB Titanium Blue', 'Quenty Phone 10 Pro'],
      ['Zorblax Runner 570 GPS Running Smartwatch, 47mm', 'Zorblax Runner 570'],
      ['Quenty Trekker 750 Trail Bike, 750 Wh, 12 Speed', 'Quenty Trekker 750'],
      ['Zorblax Cruiser E-Bike, 750 Wh, Step-Through', 'Zorblax Cruiser E-Bike'],
      // names without a model number, short titles and sizes in inches stay whole
      ['Zorblax Ice Cream & Bakery Shop', 'Zorblax Ice Cream & Bakery Shop'],
      ['Quenty Model 3 Long Range', 'Quenty Model 3 Long Range'],
      ['Zorblax 21-Inch Hardside Spinner Case', 'Zorblax 21-Inch Hardside Spinner Case'],
    ];
    expect(titles.map(([title]) => title.slice(0, shoppingTitleEnd(title)))).toEqual(titles.map(([, name]) => name));
  });

  it('keeps a name whole across "&" and a word that only English would read as opening a sentence', () => {
    const surfaces = (text: string): string[] => readCandidates(readBlocks(text)).map((candidate) => candidate.surface);
    expect(surfaces('I would skip the Zorblax & Noble at the mall.')).toContain('Zorblax & Noble');
    expect(surfaces('Juste en face, le Quenty Social est dans le même esprit.')).toContain('Quenty Social');
    expect(surfaces("If you have kids, Zorblax Children's Bookshop is worth it.")).toContain("Zorblax Children's Bookshop");
  });

  it("ends a list item's unformatted head where formatting starts", () => {
    const answer = '1. Zorblax Stroll 5 *Best for: bumpy sidewalks* Big wheels.\n2. Quenty Vista V3 **Best for:** families.';
    const heads = readCandidates(readBlocks(answer)).filter((candidate) => candidate.slot === 'list_head').map((candidate) => candidate.surface);
    expect(heads).toEqual(['Zorblax Stroll 5', 'Quenty Vista V3']);
  });

  it('cuts a run where two names met once line breaks were lost, and only where both stand alone elsewhere', () => {
    const flat = 'We tried Zorblax Cloud Quenty Drive for backups. For photos, pick Quenty Drive over Zorblax Cloud. Our pick is Zorblax Zorblax Cloud Pro. Apple Music Spotify Premium sounds fine.';
    const surfaces = readCandidates(readBlocks(flat)).map((candidate) => candidate.surface);
    expect(surfaces).toContain('Zorblax Cloud');
    expect(surfaces).toContain('Quenty Drive');
    expect(surfaces).not.toContain('Zorblax Cloud Quenty Drive');
    // a word written twice at once: the first is a name of its own
    expect(surfaces).toContain('Zorblax Cloud Pro');
    expect(surfaces).not.toContain('Zorblax Zorblax Cloud Pro');
    // neither side stands alone elsewhere: the run stays whole
    expect(surfaces).toContain('Apple Music Spotify Premium');
  });
});

describe('features', () => {
  const featuresOf = (answer: string, surface: string): string[] => {
    const candidates = readCandidates(readBlocks(answer));
    const context = answerContext(answer, candidates);
    const candidate = candidates.find((item) => item.surface === surface);
    if (candidate === undefined) throw new Error(`no candidate ${surface}`);
    return [...candidateFeatures(candidate, context).keys()];
  };

  it('marks a name placed on a street, and a name written after "in" somewhere in the answer', () => {
    const answer = 'For dinner, book Zorblax Bistro, rue des Martyrs, or Quenty Tavern on Elm Street. Stay in Riverbend; Riverbend has the best bars.';
    expect(featuresOf(answer, 'Zorblax Bistro')).toContain('after:address');
    expect(featuresOf(answer, 'Quenty Tavern')).toContain('after:address');
    expect(featuresOf(answer, 'Riverbend')).toContain('repeat:after_locative_somewhere');
    expect(featuresOf(answer, 'Quenty Tavern')).not.toContain('repeat:after_locative_somewhere');
  });

  it('gives every name of an enumeration the everyday words around all of it: "brands like A or B", "A and B users"', () => {
    const answer = 'Wear socks from brands like Zorblax Wool or Quenty. It suits Initech and Globex users best.';
    expect(featuresOf(answer, 'Quenty')).toContain('enum_prev=like');
    expect(featuresOf(answer, 'Zorblax Wool')).not.toContain('enum_prev=like');
    expect(featuresOf(answer, 'Initech')).toContain('enum_next=users');
    // the last name has the word as its own next word already
    expect(featuresOf(answer, 'Globex')).toContain('next=users');
    expect(featuresOf(answer, 'Globex')).not.toContain('enum_next=users');
  });

  it('gives a name, and every name of its enumeration, the noun that introduces it: "brands like A, B and C"', () => {
    const answer = 'Try brands like Zorblax, Quenty and Initech for socks. For a quiet night, pick neighbourhoods such as Riverbend. Globex is fine too.';
    for (const name of ['Zorblax', 'Quenty', 'Initech']) expect(featuresOf(answer, name)).toContain('intro=brand');
    expect(featuresOf(answer, 'Riverbend')).toEqual(expect.arrayContaining(['intro:any', 'intro:place']));
    expect(featuresOf(answer, 'Globex')).not.toContain('intro:any');
  });

  it('tells German compounds and inflections of everyday words from other capitalised words', () => {
    const german = knowledge().everydayGerman;
    expect(isGermanCompound('folgekosten', german)).toBe(true);
    expect(isGermanCompound('datenschutz', german)).toBe(true);
    expect(isGermanCompound('zorblax', german)).toBe(false);
    expect(isGermanCompound('quentyhaus', german)).toBe(false);
  });

  it('marks what German capitals say: an unknown single word, two capitalised words mid-sentence', () => {
    const answer = 'Für die Familie ist der Zorblax Kombi gut, und die Quentyx ist günstig. Die Versicherung ist wichtig.';
    expect(featuresOf(answer, 'Zorblax Kombi')).toContain('lang:de_multiword');
    expect(featuresOf(answer, 'Quentyx')).toContain('lang:de_unknown_word');
    expect(featuresOf(answer, 'Versicherung')).not.toContain('lang:de_unknown_word');
  });
});

describe('German nouns run into names', () => {
  const surfaces = (text: string, restored: boolean): string[] => readCandidates(readBlocks(text), { language: 'de', restored }).map((candidate) => candidate.surface);
  const copied = 'Die Tarife im Vergleich: Leistungen Zorblax Direkt mit Schutz. Der Aufpreis Quenty Mobil ist klein. Im Hotel Quentyhof wohnt man gut. Die Deutsche Quentybahn fährt.';

  it('cuts an everyday German noun off the name it ran into, in a one-line copy', () => {
    const restored = surfaces(copied, true);
    expect(restored).toEqual(expect.arrayContaining(['Leistungen', 'Zorblax Direkt', 'Aufpreis', 'Quenty Mobil']));
    // not after a business word or a proper adjective
    expect(restored).toEqual(expect.arrayContaining(['Hotel Quentyhof', 'Deutsche Quentybahn']));
  });

  it('leaves runs whole in an answer that kept its lines', () => {
    expect(surfaces(copied, false)).toContain('Leistungen Zorblax Direkt');
  });
});

describe('group headings run into names', () => {
  const surfaces = (text: string, oneLine: boolean): string[] => readCandidates(readBlocks(text), { oneLine }).map((candidate) => candidate.surface);
  // a district heading over its list, and a label over the next picks, copied without line breaks
  const copied = 'Kreuzberg Zorblax Coffee Roasters – bright filter coffee. Quenty Bakery – good bread. Honorable mentions Initech Notes — sticky notes.';

  it('cuts a place the gazetteer knows, and label words, off the name after them in a one-line answer', () => {
    const oneLine = surfaces(copied, true);
    expect(oneLine).toEqual(expect.arrayContaining(['Kreuzberg', 'Zorblax Coffee Roasters']));
    expect(oneLine).not.toContain('Kreuzberg Zorblax Coffee Roasters');
    // readBlocks keeps this as one paragraph: the label cut is for a list item's head
    const item = readCandidates(readBlocks('- Honorable mentions Initech Notes — sticky notes.'), { oneLine: true }).map((candidate) => candidate.surface);
    expect(item).toContain('Initech Notes');
    expect(item).not.toContain('Honorable mentions Initech Notes');
  });

  it('keeps a place with one business word whole, and leaves answers with their lines alone', () => {
    expect(surfaces('We loved Berlin Bakery and its rye.', true)).toContain('Berlin Bakery');
    expect(surfaces(copied, false)).toContain('Kreuzberg Zorblax Coffee Roasters');
  });

  it('stops the name before a repeated field label at a full stop, and keeps "&" in a copied table\'s first cell', () => {
    const fields = `${'Our picks for the valley. '.repeat(6)}Best for: homes near the creek in Eastwick or Riverbend Hills. Zorblax Pest Why it stands out: fast visits. Quenty Guard Why it stands out: good prices.`;
    const restored = restoreLineBreaks(fields);
    expect(restored).toContain('- **Zorblax Pest**');
    expect(restored).not.toContain('Riverbend Hills. Zorblax Pest**');
    const table = restoreTables('Compared: Suitcase   Shell   Price Zorblax Tarvo Spinner   Nylon   ~$300 Quenty & Sons Base   Nylon   ~$600 Initech Roll   Resin   ~$200. That is all.');
    expect(table[1]?.text.split('\n')).toEqual([
      '| Suitcase | Shell | Price |',
      '|---|---|---|',
      '| Zorblax Tarvo Spinner | Nylon | ~$300 |',
      '| Quenty & Sons Base | Nylon | ~$600 |',
      '| Initech Roll | Resin | ~$200. |',
    ]);
  });
});

describe('extractBrands', () => {
  it('reads item headings without their taglines and leaves integrations and labels out', () => {
    expect(extractBrands(HEADINGS)).toEqual(['Asana', 'Trello', 'ClickUp', 'monday.com']);
  });

  it('reads shopping-card titles, drops emoji headings, pick labels and cited sources', () => {
    expect(extractBrands(SHOPPING)).toEqual([
      'Samsonite Winfield 3 DLX Hardside Carry-On',
      'Away',
      'Monos Carry-On Plus',
      'Amazon Basics 21-Inch Hardside Spinner',
    ]);
  });

  it('reads the name column of a table and leaves technical terms in prose out', () => {
    expect(extractBrands(TABLE)).toEqual(['Garmin Forerunner 965', 'Apple Watch Ultra 2', 'COROS Vertix 2S']);
  });

  it('returns nothing for a refusal or a clarifying question', () => {
    expect(extractBrands("I'm sorry, but I can't help with that request.")).toEqual([]);
    expect(extractBrands('Could you tell me your budget and whether you use **Mac** or **Windows**?')).toEqual([]);
  });

  it('reports the audited brand only where the answer names it', () => {
    expect(extractBrands(HEADINGS, { brand: 'Basecamp' })).not.toContain('Basecamp');
    expect(extractBrands(HEADINGS, { brand: 'Trello' }).filter((name) => name === 'Trello')).toHaveLength(1);
    expect(extractBrands(`${TABLE}\nSome runners like Polar.`, { competitors: ['Polar'] })).toContain('Polar');
  });

  it('explains every candidate with its decision and the features that drove it', () => {
    const { brands, candidates } = explainExtraction(HEADINGS);
    expect(brands).toEqual(extractBrands(HEADINGS));
    const slack = candidates.find((candidate) => candidate.surface === 'Slack');
    expect(slack?.decision).toBe('dropped');
    expect(slack?.drivers.length).toBeGreaterThan(0);
    const asana = candidates.find((candidate) => candidate.surface === 'Asana' && candidate.slot === 'heading');
    expect(asana?.decision).toBe('entry');
    // the tagline's dash after it, the clue of a pick heading, is among what drove it
    expect(asana?.drivers.map(([name]) => name)).toContain('after:dash');
  });

  it('never throws and never reports a word the answer does not contain', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.constantFrom('', '\n', '**', '### ', '| a | b |\n|---|---|\n', '- '), (text, prefix) => {
        const answer = prefix + text;
        const folded = answer.toLowerCase();
        // markdown may sit inside a name ("*a*&" reads "a&"), so each of its words is checked
        for (const name of extractBrands(answer)) {
          for (const word of name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) expect(folded).toContain(word);
        }
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});
