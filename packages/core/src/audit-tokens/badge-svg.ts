import { escapeHtml } from '../text/escape.js';
import { badgeStateAt, formatMeasuredMonth, type BadgeState } from './badge-state.js';
import { BADGE_FONT_FAMILY, fitTextToWidth } from './text-width.js';

/** The spec's display size of the embed; the SVG's own size and viewBox match it. */
export const BADGE_WIDTH = 250;
export const BADGE_HEIGHT = 40;
/** Where both lines of text start, and the room they have before the right edge. */
export const BADGE_TEXT_X = 16;
export const BADGE_TEXT_MAX_WIDTH = BADGE_WIDTH - BADGE_TEXT_X - 8;
export const BADGE_HEADLINE_FONT_SIZE = 10;
export const BADGE_BRAND_FONT_SIZE = 13;

/** The longest brand the accessible label repeats; the visible line is fitted by width instead. */
const LABEL_BRAND_MAX_CHARACTERS = 120;

export interface BadgeInput {
  state: BadgeState;
  /** The audited brand, as the user typed it (escaped and fitted here). */
  brand?: string;
  /** The last run; required for a measured badge. */
  measuredAt?: Date;
  now: Date;
  /** The audit ran against the demo simulator: the badge must not call it a measurement. */
  demo?: boolean;
}

const ACCENTS = { fresh: '#1a7f37', recheck: '#9a6700', unknown: '#6e7781', demo: '#8250df' } as const;

// Characters XML 1.0 forbids even escaped, lone surrogates, and bidi overrides/isolates (which could
// visually reorder our own wording around the brand) are dropped; line breaks and tabs become spaces.
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** User text made safe to place in the SVG before escaping: valid XML characters on one line. */
export function cleanBadgeText(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/\s+/g, ' ').trim();
}

interface BadgeWording {
  accent: string;
  headline: string;
  secondLine: string;
  secondLineIsBrand: boolean;
  label: string;
}

function wordingFor(input: BadgeInput): BadgeWording {
  const brand = cleanBadgeText(input.brand ?? '');
  const measuredAt = input.measuredAt;
  if (input.state === 'unknown' || brand === '' || measuredAt === undefined || Number.isNaN(measuredAt.getTime())) {
    return {
      accent: ACCENTS.unknown,
      headline: 'AI visibility · not found',
      secondLine: 'No measurement at this link',
      secondLineIsBrand: false,
      label: 'AI visibility: badge not found',
    };
  }
  const labelBrand = [...brand].slice(0, LABEL_BRAND_MAX_CHARACTERS).join('');
  if (input.demo === true) {
    return {
      accent: ACCENTS.demo,
      headline: 'AI visibility · demo, not measured',
      secondLine: brand,
      secondLineIsBrand: true,
      label: `${labelBrand}: AI visibility demo, not a measurement`,
    };
  }
  // Even when asked for a fresh badge, a stale date never yields one.
  if (input.state === 'recheck' || badgeStateAt(measuredAt, input.now) === 'recheck') {
    return {
      accent: ACCENTS.recheck,
      headline: 'AI visibility · re-check due',
      secondLine: brand,
      secondLineIsBrand: true,
      label: `${labelBrand}: AI visibility re-check due`,
    };
  }
  const month = formatMeasuredMonth(measuredAt);
  return {
    accent: ACCENTS.fresh,
    headline: `AI visibility · measured ${month}`,
    secondLine: brand,
    secondLineIsBrand: true,
    label: `${labelBrand}: AI visibility measured ${month}`,
  };
}

/**
 * The 250×40 badge SVG: "AI visibility · measured Nov 2026" over the brand, a re-check state once the
 * last run is more than 60 days old, or a neutral "not found". Built from string templates (the
 * badge route is hot); every user-supplied string is cleaned, fitted to the width and escaped.
 */
export function renderBadgeSvg(input: BadgeInput): string {
  const wording = wordingFor(input);
  const headline = fitTextToWidth(wording.headline, BADGE_TEXT_MAX_WIDTH, BADGE_HEADLINE_FONT_SIZE).text;
  const secondLine = fitTextToWidth(wording.secondLine, BADGE_TEXT_MAX_WIDTH, BADGE_BRAND_FONT_SIZE).text;
  const label = escapeHtml(wording.label);
  const secondLineColor = wording.secondLineIsBrand ? '#1f2328' : '#57606a';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" viewBox="0 0 ${BADGE_WIDTH} ${BADGE_HEIGHT}" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<rect width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" rx="4" fill="${wording.accent}"/>` +
    `<rect x="6" y="1" width="${BADGE_WIDTH - 7}" height="${BADGE_HEIGHT - 2}" rx="3" fill="#fff"/>` +
    `<g font-family="${BADGE_FONT_FAMILY}" text-rendering="geometricPrecision">` +
    `<text x="${BADGE_TEXT_X}" y="16" font-size="${BADGE_HEADLINE_FONT_SIZE}" fill="#57606a">${escapeHtml(headline)}</text>` +
    `<text x="${BADGE_TEXT_X}" y="31" font-size="${BADGE_BRAND_FONT_SIZE}" fill="${secondLineColor}">${escapeHtml(secondLine)}</text>` +
    `</g></svg>`
  );
}
