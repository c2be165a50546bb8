/** How the site answered an AI crawler's user agent compared with a browser's. */
export interface BotAccess {
  /** The crawler imitated, e.g. "GPTBot". */
  userAgent: string;
  /** HTTP status for the browser user agent; null when no response came. */
  browserStatus: number | null;
  /** HTTP status for the AI crawler's user agent; null when no response came. */
  botStatus: number | null;
  /** True when the crawler is refused, challenged or served a much poorer page than a browser. */
  blocked: boolean;
  /** Why, in words for the report. */
  reason: string;
}

/** One fetch of the homepage, reduced to what the comparison needs. */
export interface AccessSample {
  status: number | null;
  title: string | undefined;
  bytes: number;
  headers: Readonly<Record<string, string>>;
  /** Why no response came (status null). */
  error?: string | undefined;
}

// Interstitial titles of the common bot-protection products (Cloudflare, Akamai, Imperva, DataDome, …).
const CHALLENGE_TITLE = /just a moment|attention required|access denied|are you a (robot|human)|captcha|security check|verify(ing)? you are human|ddos[- ]protection|request blocked|bot protection|pardon our interruption/i;
/** A bot page under this share of the browser page's size (with a different title) counts as a poorer page. */
const SHORT_PAGE_RATIO = 0.3;
/** Pages smaller than this are too small for the size comparison to mean anything. */
const MIN_COMPARABLE_BYTES = 2_000;

const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 400;

function isChallenge(sample: AccessSample): boolean {
  return sample.headers['cf-mitigated']?.toLowerCase() === 'challenge' || CHALLENGE_TITLE.test(sample.title ?? '');
}

/**
 * Compares the homepage as fetched with a browser user agent and with an AI crawler's: a refusal, a
 * challenge page or a much shorter page for the crawler only is the finding "the CDN blocks AI bots".
 */
export function compareBotAccess(browser: AccessSample, bot: AccessSample, userAgent: string): BotAccess {
  const result = (blocked: boolean, reason: string): BotAccess => ({
    userAgent,
    browserStatus: browser.status,
    botStatus: bot.status,
    blocked,
    reason,
  });
  if (!isSuccess(browser.status)) {
    if (browser.status === null) return result(false, `the browser request failed (${browser.error ?? 'no response'}), so there is nothing to compare`);
    if (isSuccess(bot.status)) return result(false, `${userAgent} gets ${bot.status} while a browser gets ${browser.status}`);
    return result(false, `the site answers both a browser (${browser.status}) and ${userAgent} (${bot.status ?? 'no response'}) with an error`);
  }
  if (bot.status === null) return result(true, `${userAgent} got no response (${bot.error ?? 'no response'}) while a browser got ${browser.status}`);
  if (!isSuccess(bot.status)) return result(true, `the site answers ${userAgent} with ${bot.status} but a browser with ${browser.status}`);
  if (isChallenge(bot) && !isChallenge(browser)) {
    return result(true, `${userAgent} is shown a bot challenge page ("${bot.title ?? 'no title'}") instead of the homepage`);
  }
  if (browser.bytes >= MIN_COMPARABLE_BYTES && bot.bytes < browser.bytes * SHORT_PAGE_RATIO && bot.title !== browser.title) {
    return result(true, `${userAgent} is served a much shorter page (${bot.bytes} bytes, titled "${bot.title ?? 'none'}") than a browser (${browser.bytes} bytes)`);
  }
  return result(false, `${userAgent} gets the same homepage as a browser (${bot.status})`);
}
