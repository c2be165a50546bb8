import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random lowercase hex of the given length (ids are random like the vendors'; only answer text is seeded). */
export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
}

/** Random base62 of the given length, the alphabet Anthropic ids use. */
export function randomBase62(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += BASE62[byte % 62] ?? '0';
  return text;
}

/** Random base64url of the given length, like Gemini's responseId. */
export function randomBase64Url(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}
