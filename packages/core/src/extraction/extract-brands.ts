// Turns an assistant's answer into the ordered, deduplicated list of brands and products it names.

import type { Entry } from './entries.js';
import { displayName, entryCoversName, groupMentions } from './entries.js';
import { compactBrandKey } from './brand-key.js';
import { parseMarkdown } from './markdown-structure.js';
import { createBrandMatcher } from './match-brand.js';
import type { Mention } from './mention.js';
import { scanProse } from './prose-mentions.js';
import { scanStructure } from './structural-mentions.js';

export interface ExtractBrandsOptions {
  /** The audited brand: reported when the answer really names it, never otherwise. */
  brand?: string;
  /** Known competitors, treated like the brand. */
  competitors?: readonly string[];
}

/** Lists the brands and products an answer names, in order of first mention, one entry each. */
export function extractBrands(answer: string, options: ExtractBrandsOptions = {}): string[] {
  const text = answer.replace(/\r\n?/gu, '\n');
  const layout = parseMarkdown(text);
  const structure = scanStructure(layout);
  const mentions: Mention[] = [...structure.mentions, ...scanProse(layout, structure.regions, structure.excluded)];
  const entries = groupMentions(mentions);
  const named: Array<{ name: string; first: number; entry: Entry | null }> = entries.map((entry) => ({
    name: displayName(entry),
    first: entry.first,
    entry,
  }));

  // The hints are found with the brand matcher, so a hinted brand the rules above missed (or took
  // for context) is still reported where the answer names it, and only there.
  const hints = [options.brand, ...(options.competitors ?? [])].filter(
    (hint): hint is string => hint !== undefined && hint.trim() !== '',
  );
  for (const hint of hints) {
    const match = createBrandMatcher(hint.trim()).find(text);
    if (match === null) continue;
    if (named.some((item) => item.entry !== null && entryCoversName(item.entry, hint))) continue;
    if (named.some((item) => item.entry !== null && entryCoversName(item.entry, match.matched))) continue;
    named.push({ name: hint.trim(), first: match.index, entry: null });
  }

  const seen = new Set<string>();
  return named
    .sort((left, right) => left.first - right.first)
    .map((item) => item.name)
    .filter((name) => {
      const key = compactBrandKey(name);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
