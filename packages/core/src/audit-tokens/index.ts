export {
  AUDIT_TOKEN_PREFIXES,
  hashAuditToken,
  isAuditTokenKind,
  isWellFormedAuditToken,
  mintAuditToken,
  listAuditTokens,
  resolveAuditToken,
  revokeAuditToken,
  revokeAuditTokenById,
} from './audit-tokens.js';
export type { AuditTokenSummary, MintAuditTokenInput } from './audit-tokens.js';
export { badgeForSubject, badgeForToken, badgeForTokenAsync } from './badge-for-token.js';
export type { BadgeSubjectReader, TokenBadge } from './badge-for-token.js';
export { badgeStateAt, formatMeasuredMonth, lastRunOf, RECHECK_AFTER_DAYS, recheckDueAt } from './badge-state.js';
export type { BadgeState } from './badge-state.js';
export {
  BADGE_BRAND_FONT_SIZE,
  BADGE_HEADLINE_FONT_SIZE,
  BADGE_HEIGHT,
  BADGE_TEXT_MAX_WIDTH,
  BADGE_TEXT_X,
  BADGE_WIDTH,
  cleanBadgeText,
  renderBadgeSvg,
} from './badge-svg.js';
export type { BadgeInput } from './badge-svg.js';
export { BADGE_FONT_FAMILY, ELLIPSIS, fitTextToWidth, measureTextWidth, TABLE_FONT_SIZE } from './text-width.js';
export type { FittedText } from './text-width.js';
