import { describe, expect, it } from 'vitest';
import {
  BADGE_BRAND_FONT_SIZE,
  BADGE_HEADLINE_FONT_SIZE,
  BADGE_TEXT_MAX_WIDTH,
  BADGE_TEXT_X,
  BADGE_WIDTH,
  renderBadgeSvg,
  type BadgeInput,
} from './badge-svg.js';
import { allElements, parseSvg, type SvgElement } from './test-support/parse-svg.js';
import { measureTextWidth } from './text-width.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const measuredAt = new Date('2026-11-04T09:30:00.000Z');
const soon = new Date('2026-11-20T12:00:00.000Z');

function render(overrides: Partial<BadgeInput> = {}): { svg: string; root: SvgElement; lines: string[]; title: string } {
  const svg = renderBadgeSvg({ state: 'fresh', brand: 'Acme CRM', measuredAt, now: soon, ...overrides });
  const root = parseSvg(svg);
  const texts = allElements(root).filter((element) => element.name === 'text');
  const title = root.children.find((element) => element.name === 'title')?.text ?? '';
  return { svg, root, lines: texts.map((element) => element.text), title };
}

describe('renderBadgeSvg', () => {
  it('is a 250×40 accessible SVG image with a title', () => {
    const { root, title } = render();
    expect(root.name).toBe('svg');
    expect(root.attributes).toMatchObject({
      xmlns: 'http://www.w3.org/2000/svg',
      width: '250',
      height: '40',
      viewBox: '0 0 250 40',
      role: 'img',
      'aria-label': 'Acme CRM: AI visibility measured Nov 2026',
    });
    expect(title).toBe('Acme CRM: AI visibility measured Nov 2026');
  });

  it('fresh: says the brand was measured, with the month', () => {
    const { lines } = render();
    expect(lines).toEqual(['AI visibility · measured Nov 2026', 'Acme CRM']);
  });

  it('at exactly 60 days after the last run still claims the measurement', () => {
    const { lines } = render({ now: new Date(measuredAt.getTime() + 60 * DAY_MS) });
    expect(lines[0]).toBe('AI visibility · measured Nov 2026');
  });

  it('recheck: no longer claims a fresh measurement once the last run is more than 60 days old', () => {
    const { lines, title, svg } = render({ state: 'recheck', now: new Date(measuredAt.getTime() + 60 * DAY_MS + 1) });
    expect(lines).toEqual(['AI visibility · re-check due', 'Acme CRM']);
    expect(title).toBe('Acme CRM: AI visibility re-check due');
    expect(svg).not.toContain('measured');
  });

  it('falls back to re-check when asked for a fresh badge with a stale date', () => {
    const { lines } = render({ state: 'fresh', now: new Date(measuredAt.getTime() + 61 * DAY_MS) });
    expect(lines[0]).toBe('AI visibility · re-check due');
  });

  it('unknown: a neutral not-found badge that names no brand', () => {
    const { lines, title, svg } = render({ state: 'unknown' });
    expect(lines).toEqual(['AI visibility · not found', 'No measurement at this link']);
    expect(title).toBe('AI visibility: badge not found');
    expect(svg).not.toContain('Acme');
  });

  it('unknown as well when a measured badge lacks its brand or date', () => {
    expect(render({ brand: '   ' }).lines[0]).toBe('AI visibility · not found');
    expect(render({ measuredAt: undefined }).lines[0]).toBe('AI visibility · not found');
    expect(render({ measuredAt: new Date('not a date') }).lines[0]).toBe('AI visibility · not found');
  });

  it('demo audits never read as a measurement', () => {
    const { lines, svg } = render({ demo: true });
    expect(lines).toEqual(['AI visibility · demo, not measured', 'Acme CRM']);
    expect(svg).not.toContain('measured Nov');
  });

  it('escapes markup, ampersands and quotes in the brand, which stays readable', () => {
    const brand = `<script>alert("x")</script> & 'Co' "Ltd"`;
    const { svg, root, lines, title } = render({ brand });
    expect(allElements(root).map((element) => element.name)).not.toContain('script');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain(`"x"`);
    expect(lines[1]?.startsWith(`<script>alert("x")`)).toBe(true);
    expect(title).toBe(`${brand}: AI visibility measured Nov 2026`);
    expect(root.attributes['aria-label']).toBe(`${brand}: AI visibility measured Nov 2026`);
  });

  it('drops characters XML forbids and bidi overrides, keeping the SVG valid', () => {
    const { lines } = render({ brand: 'Ac\u0000me\u0007 \u202eRTL\u202c\nCo\uffff\ud800' });
    expect(lines[1]).toBe('Acme RTL Co');
  });

  it('truncates a very long brand with an ellipsis so that its measured width fits', () => {
    const brand = 'Wonderfully Memorable Worldwide Widgets & Wares Manufacturing Company of Massachusetts';
    const { lines, title } = render({ brand });
    const shown = lines[1] ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(brand.startsWith(shown.slice(0, -1))).toBe(true);
    expect(measureTextWidth(shown, BADGE_BRAND_FONT_SIZE)).toBeLessThanOrEqual(BADGE_TEXT_MAX_WIDTH);
    expect(BADGE_TEXT_X + BADGE_TEXT_MAX_WIDTH).toBeLessThan(BADGE_WIDTH);
    // The accessible name keeps the whole brand.
    expect(title.startsWith(brand)).toBe(true);
  });

  it('fits brands in wide scripts and emoji too, and every line of every state', () => {
    for (const brand of ['株式会社サンプル東京本社グローバルマーケティング部門', '🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀', 'Ш'.repeat(40), 'W'.repeat(40)]) {
      for (const state of ['fresh', 'recheck', 'unknown'] as const) {
        const { lines } = render({ brand, state });
        expect(measureTextWidth(lines[0] ?? '', BADGE_HEADLINE_FONT_SIZE)).toBeLessThanOrEqual(BADGE_TEXT_MAX_WIDTH);
        expect(measureTextWidth(lines[1] ?? '', BADGE_BRAND_FONT_SIZE)).toBeLessThanOrEqual(BADGE_TEXT_MAX_WIDTH);
      }
    }
  });

  it('shows a short brand whole', () => {
    expect(render({ brand: 'Acme' }).lines[1]).toBe('Acme');
  });
});

describe('parseSvg (the check the badge tests rely on)', () => {
  it('rejects unbalanced tags, bare ampersands and forbidden characters', () => {
    expect(() => parseSvg('<svg><text>a</svg>')).toThrow();
    expect(() => parseSvg('<svg><text>a & b</text></svg>')).toThrow();
    expect(() => parseSvg('<svg><text>a\u0001</text></svg>')).toThrow();
    expect(() => parseSvg('<svg/><svg/>')).toThrow();
    expect(() => parseSvg('<svg><rect></svg>')).toThrow();
    expect(() => parseSvg('<svg><rect/></text></svg>')).toThrow();
    expect(parseSvg('<svg><rect x="1"/><g></g></svg>').children.map((element) => element.name)).toEqual(['rect', 'g']);
    expect(parseSvg('<svg><text>a &amp; b</text></svg>').children[0]?.text).toBe('a & b');
  });
});
