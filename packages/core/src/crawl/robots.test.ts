import { describe, expect, it } from 'vitest';
import { aiCrawlerAccess, AI_CRAWLERS, parseRobots, robotsVerdict } from './robots.js';

describe('parseRobots', () => {
  it('groups consecutive user-agent lines and collects sitemaps', () => {
    const robots = parseRobots(
      ['# comment', 'User-agent: GPTBot', 'User-Agent: CCBot/2.0 # trailing comment', 'Disallow: /', 'Crawl-delay: 10', '', 'Sitemap: https://acme.io/sitemap.xml', 'user-agent: *', 'allow: /'].join('\r\n'),
    );
    expect(robots.groups).toEqual([
      { agents: ['gptbot', 'ccbot'], rules: [{ allow: false, pattern: '/' }] },
      { agents: ['*'], rules: [{ allow: true, pattern: '/' }] },
    ]);
    expect(robots.sitemaps).toEqual(['https://acme.io/sitemap.xml']);
  });

  it('ignores rules before any user-agent and empty Disallow values', () => {
    const robots = parseRobots('Disallow: /\nUser-agent: *\nDisallow:\n');
    expect(robots.groups).toEqual([{ agents: ['*'], rules: [] }]);
    expect(robotsVerdict(robots, 'GPTBot')).toEqual({ allowed: true, matchedGroup: 'wildcard', rule: undefined });
  });

  it('reads an HTML page as no rules at all', () => {
    expect(parseRobots('<!doctype html><html><body>Not found</body></html>').groups).toEqual([]);
  });
});

describe('robotsVerdict', () => {
  it('prefers the group naming the crawler over *', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nAllow: /\n');
    expect(robotsVerdict(robots, 'OAI-SearchBot')).toEqual({ allowed: true, matchedGroup: 'specific', rule: 'Allow: /' });
    expect(robotsVerdict(robots, 'GPTBot')).toEqual({ allowed: false, matchedGroup: 'wildcard', rule: 'Disallow: /' });
  });

  it('matches the product token case-insensitively and exactly (GPTBot is not ChatGPT-User)', () => {
    const robots = parseRobots('User-agent: gptbot\nDisallow: /\n');
    expect(robotsVerdict(robots, 'GPTBot').allowed).toBe(false);
    expect(robotsVerdict(robots, 'ChatGPT-User')).toEqual({ allowed: true, matchedGroup: 'none', rule: undefined });
  });

  it('merges several groups for the same crawler', () => {
    const robots = parseRobots('User-agent: ClaudeBot\nDisallow: /private\n\nUser-agent: ClaudeBot\nDisallow: /\n');
    expect(robotsVerdict(robots, 'ClaudeBot').allowed).toBe(false);
  });

  it('lets the longest match win, and Allow win a tie', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /\nAllow: /$\nAllow: /blog\nDisallow: /blog/drafts\nDisallow: /page\nAllow: /page\n');
    expect(robotsVerdict(robots, 'x', '/')).toMatchObject({ allowed: true, rule: 'Allow: /$' });
    expect(robotsVerdict(robots, 'x', '/about').allowed).toBe(false);
    expect(robotsVerdict(robots, 'x', '/blog/post').allowed).toBe(true);
    expect(robotsVerdict(robots, 'x', '/blog/drafts/1').allowed).toBe(false);
    expect(robotsVerdict(robots, 'x', '/page').allowed).toBe(true);
  });

  it('supports * wildcards and the $ anchor', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?session=\n');
    expect(robotsVerdict(robots, 'x', '/files/a.pdf').allowed).toBe(false);
    expect(robotsVerdict(robots, 'x', '/files/a.pdf.html').allowed).toBe(true);
    expect(robotsVerdict(robots, 'x', '/cart?session=1').allowed).toBe(false);
    expect(robotsVerdict(robots, 'x', '/').allowed).toBe(true);
  });

  it('treats regex characters in patterns literally', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a.b(c)+\n');
    expect(robotsVerdict(robots, 'x', '/a.b(c)+/x').allowed).toBe(false);
    expect(robotsVerdict(robots, 'x', '/aXb(c)+').allowed).toBe(true);
  });
});

describe('aiCrawlerAccess', () => {
  it('reports each AI crawler, training and assistant-search separately', () => {
    const access = aiCrawlerAccess(parseRobots('User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n'));
    const verdict = (token: string): boolean | undefined => access.find((entry) => entry.token === token)?.allowed;
    expect(access).toHaveLength(AI_CRAWLERS.length);
    expect(verdict('GPTBot')).toBe(false);
    expect(verdict('Google-Extended')).toBe(false);
    expect(verdict('PerplexityBot')).toBe(false);
    expect(verdict('OAI-SearchBot')).toBe(true);
    expect(verdict('ClaudeBot')).toBe(true);
    expect(access.find((entry) => entry.token === 'GPTBot')?.purpose).toBe('training');
    expect(access.find((entry) => entry.token === 'OAI-SearchBot')?.purpose).toBe('assistant_search');
    expect(access.find((entry) => entry.token === 'ChatGPT-User')?.purpose).toBe('user_triggered');
  });

  it('allows everyone when there is no robots.txt', () => {
    expect(aiCrawlerAccess(undefined).every((entry) => entry.allowed && entry.matchedGroup === 'none')).toBe(true);
  });
});
