import { Parser } from 'htmlparser2';

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
  children: SvgElement[];
  /** Decoded text directly inside this element. */
  text: string;
}

// htmlparser2 is forgiving; these are the XML rules it would let slip.
const FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i;

/**
 * Parses an SVG strictly enough for tests: one root element, every tag closed by its own end tag,
 * no bare "&", no character XML forbids. Throws with the reason otherwise.
 */
export function parseSvg(svg: string): SvgElement {
  if (FORBIDDEN_CHARACTERS.test(svg)) throw new Error('contains a character XML 1.0 forbids');
  if (BARE_AMPERSAND.test(svg)) throw new Error('contains an "&" that starts no entity');
  const roots: SvgElement[] = [];
  const stack: Array<{ element: SvgElement; selfClosing: boolean }> = [];
  const problems: string[] = [];
  let explicitEndTags = 0;
  // htmlparser2 reports "<rect/>" and an end tag it had to invent alike (implied), so the source decides.
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const element: SvgElement = { name, attributes: { ...attributes }, children: [], text: '' };
        const parent = stack.at(-1)?.element;
        if (parent === undefined) roots.push(element);
        else parent.children.push(element);
        stack.push({ element, selfClosing: svg.slice(parser.startIndex, parser.endIndex + 1).endsWith('/>') });
      },
      onclosetag(name, isImplied) {
        const open = stack.pop();
        if (open?.element.name !== name) problems.push(`</${name}> closes <${open?.element.name ?? 'nothing'}>`);
        if (!isImplied) explicitEndTags += 1;
        else if (open?.selfClosing !== true) problems.push(`<${name}> is not closed by its own end tag`);
      },
      ontext(text) {
        const parent = stack.at(-1)?.element;
        if (parent === undefined) {
          if (text.trim() !== '') problems.push(`text outside the root: ${JSON.stringify(text)}`);
        } else parent.text += text;
      },
      onprocessinginstruction(name) {
        problems.push(`unexpected declaration ${name}`);
      },
      onerror(error) {
        problems.push(error.message);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(svg);
  parser.end();
  if (roots.length !== 1) problems.push(`${roots.length} root elements`);
  // An end tag that matches no open element is dropped silently by the parser.
  if ((svg.match(/<\/[^>]*>/g) ?? []).length !== explicitEndTags) problems.push('an end tag closes nothing');
  if (problems.length > 0) throw new Error(problems.join('; '));
  return roots[0] as SvgElement;
}

/** Every element of a tree, depth first. */
export function allElements(root: SvgElement): SvgElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
