import { Parser } from 'htmlparser2';

/** Deeper than any real page (Lighthouse already warns past 32 levels); hostile pages go far deeper. */
export const MAX_NESTING_DEPTH = 500;

class TooDeep extends Error {
  constructor(readonly at: number) {
    super('too deeply nested');
  }
}

/**
 * Cuts the HTML where element nesting first passes `maxDepth`. htmlparser2 (and domutils) spend time
 * proportional to the depth on every tag, so a hostile page of 300k nested <div>s would take minutes;
 * this pre-pass uses the same parser's events (so implied closes count exactly) and stops early.
 */
export function cutDeepNesting(html: string, options: { maxDepth?: number; xmlMode?: boolean } = {}): { html: string; cut: boolean } {
  const maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
  let depth = 0;
  const parser: Parser = new Parser(
    {
      onopentagname: () => {
        depth += 1;
        if (depth > maxDepth) throw new TooDeep(parser.startIndex);
      },
      onclosetag: () => {
        depth -= 1;
      },
    },
    { decodeEntities: false, lowerCaseTags: true, xmlMode: options.xmlMode === true },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error instanceof TooDeep) return { html: html.slice(0, error.at), cut: true };
    throw error;
  }
  return { html, cut: false };
}
