/** The representations a site URL can produce. */
export type Representation = 'html' | 'markdown';

export const MEDIA_TYPES: Record<Representation, string> = {
  html: 'text/html',
  markdown: 'text/markdown',
};

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Order in the header, for ties. */
  index: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, index) => {
    const [range = '', ...parameters] = part.split(';');
    const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
    if (type === '' || subtype === '') return;
    let q = 1;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=');
      if (name.trim().toLowerCase() !== 'q') continue;
      const parsed = Number(value.trim());
      // An unreadable q makes the range worthless rather than preferred.
      q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
    }
    ranges.push({ type, subtype, q, index });
  });
  return ranges;
}

/** The markdown media types we answer to (text/x-markdown is the older spelling). */
const ALIASES: Record<Representation, string[]> = {
  html: ['text/html', 'application/xhtml+xml'],
  markdown: ['text/markdown', 'text/x-markdown'],
};

/** The q the header gives one representation: the most specific matching range wins (RFC 9110 12.5.1). */
function qualityOf(ranges: MediaRange[], representation: Representation): { q: number; index: number } {
  let best: { q: number; index: number; specificity: number } | undefined;
  for (const range of ranges) {
    let specificity = -1;
    for (const media of ALIASES[representation]) {
      const [type, subtype] = media.split('/');
      if (range.type === type && range.subtype === subtype) specificity = Math.max(specificity, 2);
      else if (range.type === type && range.subtype === '*') specificity = Math.max(specificity, 1);
      else if (range.type === '*' && range.subtype === '*') specificity = Math.max(specificity, 0);
    }
    if (specificity < 0) continue;
    if (best === undefined || specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) {
      best = { q: range.q, index: range.index, specificity };
    }
  }
  return best === undefined ? { q: 0, index: Infinity } : { q: best.q, index: best.index };
}

/**
 * Picks what to send for an Accept header among the representations a URL can produce (in order of
 * preference on ties). No header, or an empty one, accepts anything. Undefined means 406.
 */
export function negotiate(accept: string | undefined, available: readonly Representation[]): Representation | undefined {
  if (accept === undefined || accept.trim() === '') return available[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return available[0];
  let chosen: { representation: Representation; q: number } | undefined;
  for (const representation of available) {
    const { q } = qualityOf(ranges, representation);
    if (q > 0 && (chosen === undefined || q > chosen.q)) chosen = { representation, q };
  }
  return chosen?.representation;
}

/** True when the client explicitly prefers JSON over both page representations (for error bodies). */
export function prefersJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = parseAccept(accept);
  const json = ranges.find((range) => range.type === 'application' && (range.subtype === 'json' || range.subtype === 'problem+json'));
  if (json === undefined || json.q === 0) return false;
  return json.q >= qualityOf(ranges, 'html').q && json.q >= qualityOf(ranges, 'markdown').q;
}
