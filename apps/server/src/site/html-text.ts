// The one way to write HTML around untrusted text (brands, categories, model ids and answers, crawled
// text, reasons): the `html` tagged template, the HTML twin of markdown-text.ts's `md`. Its literal parts
// are the service's own markup; every interpolated value is escaped with escapeHtml unless it is markup
// the service wrote itself and says so by name (`html` results, `trustedHtml`). Forgetting to escape is
// then impossible: a plain string can only ever come out as text.

import { escapeHtml } from '@visibility/core';

/** Markup the service wrote (or a value already escaped); `html` inserts it unchanged. */
export class TrustedHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/** Marks markup the service itself wrote (a fixed element, an SVG chart it drew) as safe to insert. */
export function trustedHtml(markup: string): TrustedHtml {
  return new TrustedHtml(markup);
}

/** A value `html` can insert: text (escaped), a number, trusted markup, nothing (`''`), or a list of them (joined with nothing). */
export type HtmlValue = string | number | TrustedHtml | readonly HtmlValue[];

function insert(value: HtmlValue): string {
  if (value instanceof TrustedHtml) return value.html;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(insert).join('');
}

/** Tagged template: `html\`<h2>${brand}</h2>\`` escapes `brand` (text and attribute values alike). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): TrustedHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += insert(value) + (strings[index + 1] ?? '');
  });
  return new TrustedHtml(out);
}

/** Markup pieces joined with a literal separator (a newline between table rows, say). */
export function joinHtml(pieces: readonly TrustedHtml[], separator: string): TrustedHtml {
  return new TrustedHtml(pieces.map((piece) => piece.html).join(separator));
}
