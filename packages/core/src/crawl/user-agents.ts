/** What the crawler sends for its own reads: a current desktop browser, so the site answers as it does for people. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** OpenAI's published GPTBot user agent: the AI crawler the bot-access probe imitates. */
export const GPTBOT_USER_AGENT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
