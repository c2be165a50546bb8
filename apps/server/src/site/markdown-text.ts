// The one way the service writes markdown around untrusted text (brands, categories, competitors, model
// ids and answers, crawled text, reasons): the `md` tagged template. Its literal parts are the service's
// own markdown; every interpolated value is escaped with `escapeMarkdown` unless it is markdown the
// service wrote itself and says so by name (`md` results, `trustedMarkdown`). Markdown is rendered by
// clients into HTML, so a value that reached a view raw could open HTML, a link or an image there.

/** Markdown the service wrote (or a value already escaped); `md` inserts it unchanged. */
export class TrustedMarkdown {
  constructor(readonly markdown: string) {}
  toString(): string {
    return this.markdown;
  }
}

/** Marks markdown the service itself wrote (a fixed sentence, a link to its own page) as safe to insert. */
export function trustedMarkdown(markdown: string): TrustedMarkdown {
  return new TrustedMarkdown(markdown);
}

/**
 * Escapes untrusted text for inline markdown (GFM), table cells included, as one line. `<`, `>` and `&`
 * become entities, which every markdown renderer decodes to the literal character (a backslash before
 * `<` is CommonMark only: the original Markdown passes `\<img …>` on as HTML). Every other character
 * that can open markup is backslash-escaped, bare URLs and e-mail addresses are broken so no autolink
 * forms, line-start markup is stopped and control characters are dropped.
 */
export function escapeMarkdown(text: string): string {
  let out = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu, '').replace(/\s+/gu, ' ').trim();
  out = out.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
  out = out.replace(/[\\`*_[\]|~@!]/gu, '\\$&');
  // GFM autolinks: "https://…", "www.…".
  out = out.replace(/\b(https?|ftp|mailto|xmpp):/giu, '$1\\:').replace(/\bwww\./giu, 'www\\.');
  // Markup that only counts at the start of a line (a cell or list item starts one too).
  out = out.replace(/^([#+=-])/u, '\\$1').replace(/^(\d+)([.)])/u, '$1\\$2');
  return out;
}

/** A value `md` can insert: text (escaped), a number, trusted markdown, or a list of them (joined with nothing). */
export type MarkdownValue = string | number | TrustedMarkdown | readonly MarkdownValue[];

function insert(value: MarkdownValue): string {
  if (value instanceof TrustedMarkdown) return value.markdown;
  // A number carries no markup; only a leading minus could start a list item.
  if (typeof value === 'number') return String(value).replace(/^-/u, '\\-');
  if (typeof value === 'string') return escapeMarkdown(value);
  return value.map(insert).join('');
}

/** Tagged template: `md\`# ${brand}: snapshot\`` escapes `brand`; the literal text is the service's own markdown. */
export function md(strings: TemplateStringsArray, ...values: MarkdownValue[]): TrustedMarkdown {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += insert(value) + (strings[index + 1] ?? '');
  });
  return new TrustedMarkdown(out);
}

/** Lines of markdown (the service's, with escaped values inside) as one document. */
export function markdownLines(lines: readonly (TrustedMarkdown | '')[]): string {
  return lines.map((line) => (line === '' ? '' : line.markdown)).join('\n');
}
