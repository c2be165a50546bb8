// A strict little tag checker for the renderers' output (no parser dependency): every `<` opens a
// well-formed tag with quoted attributes, every element is closed in order, text carries no raw `<`
// or `>`, and every `&` starts a known entity. Injected markup breaks at least one of these rules.

const HTML_VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export interface Tag {
  name: string;
  closing: boolean;
  attributes: Array<{ name: string; value: string | null }>;
}

const TOKEN = /<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:\s+[A-Za-z_:][\w:.-]*(?:="[^"]*")?)*)\s*(\/?)>|[<>]/gu;
const ATTRIBUTE = /\s+([A-Za-z_:][\w:.-]*)(?:="([^"]*)")?/gu;

/** The tags of a fragment, in order. */
export function tags(markup: string): Tag[] {
  const out: Tag[] = [];
  for (const match of markup.matchAll(TOKEN)) {
    if (match[2] === undefined) continue;
    const attributes = [...(match[3] ?? '').matchAll(ATTRIBUTE)].map((attribute) => ({ name: (attribute[1] ?? '').toLowerCase(), value: attribute[2] ?? null }));
    out.push({ name: match[2].toLowerCase(), closing: match[1] === '/', attributes });
  }
  return out;
}

/** What is wrong with the markup; empty when it is well formed. `xml`: no void elements (SVG). */
export function markupProblems(markup: string, mode: 'html' | 'xml' = 'html'): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  for (const match of markup.matchAll(TOKEN)) {
    const [whole, slash, rawName, , selfClosing] = match;
    if (rawName === undefined) {
      problems.push(`stray ${whole} at ${match.index}: ${JSON.stringify(markup.slice(Math.max(0, match.index - 30), match.index + 30))}`);
      continue;
    }
    const name = mode === 'html' ? rawName.toLowerCase() : rawName;
    if (slash === '/') {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}> at ${match.index}`);
    } else if (selfClosing !== '/' && !(mode === 'html' && HTML_VOID.has(name))) {
      stack.push(name);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  const badEntity = /&(?!(?:amp|lt|gt|quot|#39|#\d+|#x[\da-f]+);)/giu.exec(markup);
  if (badEntity !== null) problems.push(`bare & at ${badEntity.index}`);
  return problems;
}

/** Each top-level <svg>…</svg> of a fragment. */
export function svgs(markup: string): string[] {
  return [...markup.matchAll(/<svg[\s>][\s\S]*?<\/svg>/gu)].map((match) => match[0]);
}
