// Names in running text: runs of capitalised words ("Jack Stack Barbecue", "Kobo Clara BW"), each
// judged by `judgeRun`. Descriptions of another item only yield names with strong evidence.

import { joinsList } from './context-cues.js';
import { RUN_CONNECTORS, judgeRun } from './judge-run.js';
import type { RunState } from './judge-run.js';
import { foldWord } from './lexicon.js';
import type { MarkdownLayout, Span } from './markdown-structure.js';
import type { Mention, TextRegion } from './mention.js';
import type { Token } from './tokens.js';
import { isModelNumber, isNameLikeToken, isPossessive, tokenize } from './tokens.js';

interface Judged {
  mention: Mention;
  end: number;
}

/** Scans prose and description regions for capitalised runs and judges each. */
export function scanProse(layout: MarkdownLayout, regions: readonly TextRegion[], excluded: readonly Span[]): Mention[] {
  const blocked = new Uint8Array(layout.plain.length + 1);
  for (const span of excluded) blocked.fill(1, span.start, span.end);
  const mentions: Mention[] = [];
  for (const region of regions) {
    const state: RunState = { contextEnd: -1, personEnd: -1 };
    const tokens = tokenize(layout.plain, region.start, region.end).filter((token) => blocked[token.start] !== 1);
    const judged: Judged[] = [];
    let index = 0;
    while (index < tokens.length) {
      const token = tokens[index];
      if (token === undefined) break;
      if (!isNameLikeToken(token.text)) {
        index += 1;
        continue;
      }
      const run = collectRun(layout.plain, tokens, index);
      const last = run[run.length - 1] ?? token;
      const mention = judgeRun(layout, region, run, state);
      if (mention !== null) {
        judged.push({ mention, end: last.end });
        mentions.push(mention);
      }
      index += run.length;
      // "GoHenry (now part of Acorns as Acorns Early)": the parenthetical belongs to the name.
      const parenthetical = /^[ \t]*\([^)\n]*\)/u.exec(layout.plain.slice(last.end, region.end));
      if (parenthetical !== null) {
        const closing = last.end + parenthetical[0].length;
        while (index < tokens.length && (tokens[index]?.start ?? Infinity) < closing) index += 1;
      }
    }
    promoteListed(layout.plain, judged);
  }
  return mentions;
}

// The longest run of name-like words from `start`, allowing model numbers ("Forerunner 265"), an
// ampersand ("Hotel & Spa") and connectors between capitalised words ("Ciudad de México").
function collectRun(plain: string, tokens: readonly Token[], start: number): Token[] {
  const first = tokens[start];
  if (first === undefined) return [];
  const run = [first];
  let next = start + 1;
  while (next < tokens.length) {
    const candidate = tokens[next];
    const previous = run[run.length - 1];
    if (candidate === undefined || previous === undefined) break;
    const gap = plain.slice(previous.end, candidate.start);
    if (/^[ \t]+&[ \t]+$/u.test(gap) && isNameLikeToken(candidate.text)) {
      run.push(candidate);
      next += 1;
      continue;
    }
    if (!/^[ \t\u00A0]+$/u.test(gap)) break;
    if (isNameLikeToken(candidate.text) || (isModelNumber(candidate.text) && !isPossessive(previous.text))) {
      run.push(candidate);
      next += 1;
      continue;
    }
    const following = tokens[next + 1];
    if (
      RUN_CONNECTORS.has(foldWord(candidate.text)) &&
      following !== undefined &&
      isNameLikeToken(following.text) &&
      /^[ \t\u00A0]+$/u.test(plain.slice(candidate.end, following.start))
    ) {
      run.push(candidate, following);
      next += 2;
      continue;
    }
    break;
  }
  return run;
}

// "Notion, Obsidian and Bear are…": a weak prose name listed next to an accepted one is a name too.
function promoteListed(plain: string, judged: readonly Judged[]): void {
  for (let pass = 0; pass < 2; pass += 1) {
    judged.forEach((item, index) => {
      const next = judged[index + 1];
      if (next === undefined || !joinsList(plain.slice(item.end, next.mention.start))) return;
      const [weak, accepted] = item.mention.verdict === 'weak' ? [item.mention, next.mention] : [next.mention, item.mention];
      if (weak.verdict === 'weak' && accepted.verdict === 'accept' && weak.source === 'prose') weak.verdict = 'accept';
    });
  }
}
