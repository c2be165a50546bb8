export interface JsonLdSummary {
  /** schema.org types found, deduplicated, in order of appearance (e.g. "Organization", "Product"). */
  types: string[];
  /** `<script type="application/ld+json">` blocks seen. */
  blocks: number;
  /** Blocks that were not valid JSON (search engines and assistants ignore them too). */
  invalidBlocks: number;
}

// Bounds for hostile input: a page cannot make the walk run long or deep.
const MAX_NODES = 5_000;
const MAX_DEPTH = 32;

/**
 * Collects the schema.org `@type`s in JSON-LD blocks: top level, `@graph` items and nested values (an
 * Organization inside a WebSite's `publisher` is still Organization markup).
 */
export function summarizeJsonLd(blocks: readonly string[]): JsonLdSummary {
  const types: string[] = [];
  let invalidBlocks = 0;
  for (const block of blocks) {
    let parsed: unknown;
    try {
      // Some CMSs wrap the JSON in HTML comments or CDATA; both are harmless to strip.
      parsed = JSON.parse(block.trim().replace(/^<!--|-->$/g, '').replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, ''));
    } catch {
      invalidBlocks += 1;
      continue;
    }
    collectTypes(parsed, types);
  }
  return { types, blocks: blocks.length, invalidBlocks };
}

function collectTypes(root: unknown, types: string[]): void {
  // Iterative walk with a node budget: deeply nested or huge JSON cannot overflow the stack.
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_NODES) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    visited += 1;
    if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) continue;
    const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
    if (!Array.isArray(value)) {
      const declared = (value as Record<string, unknown>)['@type'];
      for (const type of Array.isArray(declared) ? declared : [declared]) {
        if (typeof type !== 'string') continue;
        const name = schemaTypeName(type);
        if (name !== '' && !types.includes(name)) types.push(name);
      }
    }
    // Pushed in reverse so the walk meets values in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push({ value: children[index], depth: depth + 1 });
  }
}

/** "http://schema.org/Organization", "schema:Organization" and "Organization" all name Organization. */
function schemaTypeName(type: string): string {
  return type.trim().replace(/^https?:\/\/(www\.)?schema\.org\//i, '').replace(/^schema:/i, '').slice(0, 80);
}
