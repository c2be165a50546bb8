/** Why an AI crawler fetches pages: to train models, to build an assistant's search index, or for one user's request. */
export type AiCrawlerPurpose = 'training' | 'assistant_search' | 'user_triggered';

export interface AiCrawler {
  /** The robots.txt product token. */
  token: string;
  operator: string;
  purpose: AiCrawlerPurpose;
}

/**
 * The AI crawlers the audit reports on. Training crawlers feed future models; the assistant-search and
 * user-triggered ones decide whether an assistant can read and cite the site today, which is what
 * recommendations depend on.
 */
export const AI_CRAWLERS: readonly AiCrawler[] = [
  { token: 'GPTBot', operator: 'OpenAI', purpose: 'training' },
  { token: 'ClaudeBot', operator: 'Anthropic', purpose: 'training' },
  { token: 'anthropic-ai', operator: 'Anthropic', purpose: 'training' },
  { token: 'Google-Extended', operator: 'Google', purpose: 'training' },
  { token: 'CCBot', operator: 'Common Crawl', purpose: 'training' },
  { token: 'Applebot-Extended', operator: 'Apple', purpose: 'training' },
  { token: 'Bytespider', operator: 'ByteDance', purpose: 'training' },
  { token: 'meta-externalagent', operator: 'Meta', purpose: 'training' },
  { token: 'OAI-SearchBot', operator: 'OpenAI', purpose: 'assistant_search' },
  { token: 'Claude-SearchBot', operator: 'Anthropic', purpose: 'assistant_search' },
  { token: 'PerplexityBot', operator: 'Perplexity', purpose: 'assistant_search' },
  { token: 'ChatGPT-User', operator: 'OpenAI', purpose: 'user_triggered' },
  { token: 'Claude-User', operator: 'Anthropic', purpose: 'user_triggered' },
  { token: 'Perplexity-User', operator: 'Perplexity', purpose: 'user_triggered' },
];

export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (may contain `*` and a final `$`). */
  pattern: string;
}

export interface RobotsGroup {
  /** Lower-cased product tokens from the group's user-agent lines (`*` for everyone). */
  agents: string[];
  rules: RobotsRule[];
}

export interface ParsedRobots {
  groups: RobotsGroup[];
  sitemaps: string[];
}

export interface RobotsVerdict {
  allowed: boolean;
  /** Which group decided: one naming the crawler, the `*` group, or none (no rules apply: allowed). */
  matchedGroup: 'specific' | 'wildcard' | 'none';
  /** The deciding line, e.g. "Disallow: /"; undefined when no rule matched the path. */
  rule: string | undefined;
}

// Google's parser accepts these common misspellings; sites rely on that, so the verdict should too.
const USER_AGENT_KEYS = new Set(['user-agent', 'useragent', 'user agent']);
const DISALLOW_KEYS = new Set(['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']);
const MAX_LINES = 20_000;

/** Parses robots.txt into user-agent groups (RFC 9309) and the Sitemap lines. */
export function parseRobots(text: string): ParsedRobots {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | undefined;
  // Consecutive user-agent lines share one group; the first rule line closes the list of agents.
  let collectingAgents = false;
  for (const rawLine of text.split(/\r\n|\r|\n/).slice(0, MAX_LINES)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const separator = line.indexOf(':');
    if (separator === -1) continue;
    const key = line.slice(0, separator).trim().toLowerCase();
    const value = line.slice(separator + 1).trim();
    if (USER_AGENT_KEYS.has(key)) {
      if (!collectingAgents || current === undefined) {
        current = { agents: [], rules: [] };
        groups.push(current);
        collectingAgents = true;
      }
      current.agents.push(agentToken(value));
    } else if (key === 'allow' || DISALLOW_KEYS.has(key)) {
      collectingAgents = false;
      // Rules before any user-agent line belong to no group; an empty value means "no rule".
      if (current !== undefined && value !== '') current.rules.push({ allow: key === 'allow', pattern: value });
    } else if (key === 'sitemap') {
      if (value !== '') sitemaps.push(value);
    }
    // Other lines (crawl-delay, host, …) neither close a group nor add rules.
  }
  return { groups, sitemaps };
}

/** The product token of a user-agent line: "GPTBot/1.0" names the GPTBot crawler. */
function agentToken(value: string): string {
  if (value === '*') return '*';
  return (/^[a-z0-9_-]+/i.exec(value)?.[0] ?? value).toLowerCase();
}

/**
 * Whether a crawler may fetch a path: the groups naming its token (merged) apply, else the `*` groups;
 * within them the longest matching pattern wins and Allow wins a tie (RFC 9309).
 */
export function robotsVerdict(robots: ParsedRobots, token: string, path = '/'): RobotsVerdict {
  const wanted = token.toLowerCase();
  let matchedGroup: RobotsVerdict['matchedGroup'] = 'specific';
  let groups = robots.groups.filter((group) => group.agents.includes(wanted));
  if (groups.length === 0) {
    matchedGroup = 'wildcard';
    groups = robots.groups.filter((group) => group.agents.includes('*'));
  }
  if (groups.length === 0) return { allowed: true, matchedGroup: 'none', rule: undefined };
  let best: RobotsRule | undefined;
  for (const rule of groups.flatMap((group) => group.rules)) {
    if (!patternMatches(rule.pattern, path)) continue;
    if (best === undefined || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)) {
      best = rule;
    }
  }
  if (best === undefined) return { allowed: true, matchedGroup, rule: undefined };
  return { allowed: best.allow, matchedGroup, rule: `${best.allow ? 'Allow' : 'Disallow'}: ${best.pattern}` };
}

/**
 * Matches a robots path pattern (`*` = any run of characters, a final `$` = end of path) from the path start.
 * A plain two-pointer wildcard match, not a RegExp: many `*`s cannot cause catastrophic backtracking.
 */
function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  // Without `$` a pattern matches any path it is a prefix of, which is the same as a trailing `*`.
  const glob = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let globIndex = 0;
  let pathIndex = 0;
  let starIndex = -1;
  let resumeAt = 0;
  while (pathIndex < path.length) {
    if (globIndex < glob.length && glob[globIndex] === '*') {
      starIndex = globIndex;
      globIndex += 1;
      resumeAt = pathIndex;
    } else if (globIndex < glob.length && glob[globIndex] === path[pathIndex]) {
      globIndex += 1;
      pathIndex += 1;
    } else if (starIndex !== -1) {
      // Let the last `*` swallow one more character and retry from there.
      globIndex = starIndex + 1;
      resumeAt += 1;
      pathIndex = resumeAt;
    } else {
      return false;
    }
  }
  while (globIndex < glob.length && glob[globIndex] === '*') globIndex += 1;
  return globIndex === glob.length;
}

export interface AiCrawlerAccess extends AiCrawler, RobotsVerdict {}

/** Each AI crawler's verdict for a path under these robots rules (everyone allowed when there are none). */
export function aiCrawlerAccess(robots: ParsedRobots | undefined, path = '/'): AiCrawlerAccess[] {
  const rules = robots ?? { groups: [], sitemaps: [] };
  return AI_CRAWLERS.map((crawler) => ({ ...crawler, ...robotsVerdict(rules, crawler.token, path) }));
}
