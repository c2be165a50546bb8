import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter, type Frontmatter } from './frontmatter.js';

/** The repository's docs/ folder, from src/site or dist/site alike. */
export const DEFAULT_DOCS_DIR = fileURLToPath(new URL('../../../../docs/', import.meta.url));

export type SitePageKind = 'home' | 'page' | 'compare' | 'blog';

/** One public page as written in docs/: its canonical path, metadata and markdown body (no H1). */
export interface SourcePage extends Frontmatter {
  path: string;
  kind: SitePageKind;
  /** The markdown body as written, without frontmatter and without the title heading. */
  body: string;
  /** The file it came from, relative to docs/. */
  source: string;
}

/** The top-level pages, in navigation order; each is docs/site/pages/{name}.md except methodology. */
export const TOP_LEVEL_PAGES = ['pricing', 'methodology', 'developers', 'compare', 'blog', 'changelog', 'about', 'contact'] as const;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function readPage(docsDir: string, relative: string, path: string, kind: SitePageKind): SourcePage {
  const { meta, body } = parseFrontmatter(readFileSync(join(docsDir, relative), 'utf8'), relative);
  return { ...meta, path, kind, body, source: relative };
}

/**
 * /methodology is docs/methodology.md itself, the page the code's numbers are documented in, so
 * the site can never drift from it. It has no frontmatter: its H1 is the title.
 */
function readMethodology(docsDir: string): SourcePage {
  const source = readFileSync(join(docsDir, 'methodology.md'), 'utf8');
  const body = source.replace(/^# .*\r?\n+/, '');
  return {
    path: '/methodology',
    kind: 'page',
    title: 'Methodology',
    description: 'How the service measures AI visibility: the questions, sampling, the formulas, the 95% intervals and what degraded means.',
    body,
    source: 'methodology.md',
  };
}

function readCollection(docsDir: string, folder: 'compare' | 'blog'): SourcePage[] {
  const directory = join(docsDir, 'site', folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const slug = file.slice(0, -3);
      if (!SLUG.test(slug)) throw new Error(`docs/site/${folder}/${file}: a slug is lowercase words joined by hyphens`);
      return readPage(docsDir, join('site', folder, file), `/${folder}/${slug}`, folder);
    })
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || a.path.localeCompare(b.path));
}

/** Everything the site publishes, read once at start-up. */
export interface SiteSources {
  home: SourcePage;
  pages: SourcePage[];
  compare: SourcePage[];
  blog: SourcePage[];
}

export function loadSiteSources(docsDir: string = DEFAULT_DOCS_DIR): SiteSources {
  return {
    home: readPage(docsDir, join('site', 'pages', 'home.md'), '/', 'home'),
    pages: TOP_LEVEL_PAGES.map((name) =>
      name === 'methodology' ? readMethodology(docsDir) : readPage(docsDir, join('site', 'pages', `${name}.md`), `/${name}`, 'page'),
    ),
    compare: readCollection(docsDir, 'compare'),
    blog: readCollection(docsDir, 'blog'),
  };
}
