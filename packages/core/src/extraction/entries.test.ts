import { describe, expect, it } from 'vitest';
import { displayName, groupMentions } from './entries.js';
import type { Mention } from './mention.js';

function entries(...surfaces: Array<[string, Mention['source']]>): string[][] {
  const mentions: Mention[] = surfaces.map(([surface, source], index) => ({ surface, start: index * 10, source, verdict: 'accept' }));
  return groupMentions(mentions).map((entry) => [displayName(entry), ...entry.forms.map((form) => form.mention.surface)]);
}

describe('grouping mentions into entries', () => {
  it('joins a maker to its product and a model to its maker', () => {
    expect(entries(['Acme Vista 7', 'structural'], ['Acme', 'prose'], ['Vista 7', 'prose'])).toEqual([['Acme Vista 7', 'Acme Vista 7', 'Acme', 'Vista 7']]);
  });

  it('joins a model named without the words that describe it, never a tier of its own', () => {
    expect(entries(['Zorblax Q4 Electric', 'structural'], ['Q4', 'prose'])).toEqual([['Zorblax Q4 Electric', 'Zorblax Q4 Electric', 'Q4']]);
    expect(entries(['Acme X5 Hybrid', 'structural'], ['Acme X5', 'prose'])).toEqual([['Acme X5 Hybrid', 'Acme X5 Hybrid', 'Acme X5']]);
    expect(entries(['Vista 7 Pro', 'structural'], ['Vista 7', 'structural'])).toEqual([
      ['Vista 7 Pro', 'Vista 7 Pro'],
      ['Vista 7', 'Vista 7'],
    ]);
    expect(entries(['Globex 15 Ultra', 'structural'], ['Globex 15', 'prose'], ['Globex 15 Mini', 'structural'])).toHaveLength(3);
  });
});
