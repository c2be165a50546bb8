/** A page's metadata, from the `key: value` block between `---` lines at the top of its markdown. */
export interface Frontmatter {
  title: string;
  description: string;
  /** ISO date, for blog posts and comparisons. */
  date?: string | undefined;
}

/** Splits a markdown file into its frontmatter and body; a file without title or description is an error. */
export function parseFrontmatter(source: string, file: string): { meta: Frontmatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (match === null) throw new Error(`${file}: missing the --- frontmatter block (title, description)`);
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const separator = line.indexOf(':');
    if (line.trim() === '' || separator === -1) continue;
    fields.set(line.slice(0, separator).trim(), line.slice(separator + 1).trim().replace(/^(["'])(.*)\1$/, '$2'));
  }
  const title = fields.get('title');
  const description = fields.get('description');
  if (!title || !description) throw new Error(`${file}: frontmatter needs title and description`);
  const date = fields.get('date');
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${file}: date must be YYYY-MM-DD`);
  return { meta: { title, description, date }, body: source.slice(match[0].length) };
}
