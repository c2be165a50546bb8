/** Narrows unknown JSON to a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value if it is a string, else undefined. */
export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value if it is a finite positive number, else undefined. */
export function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The text of message content in any vendor's shape: a string, or parts/blocks carrying `text`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === 'string' ? part : isRecord(part) ? (stringField(part['text']) ?? '') : ''))
      .filter((text) => text.length > 0)
      .join('\n');
  }
  if (isRecord(content)) return stringField(content['text']) ?? contentText(content['parts']);
  return '';
}

/** The text of the last message whose role matches, or of the last message when none has a role. */
export function lastMessageText(messages: unknown, roles: readonly string[], contentKey: string): string {
  if (!Array.isArray(messages)) return '';
  for (let index = messages.length - 1; index >= 0; index--) {
    const message: unknown = messages[index];
    if (!isRecord(message)) continue;
    const role = stringField(message['role']);
    if (role === undefined || roles.includes(role)) return contentText(message[contentKey]);
  }
  return '';
}

/** All message texts joined, for token counting. */
export function allMessagesText(messages: unknown, contentKey: string): string {
  if (!Array.isArray(messages)) return '';
  return messages.map((message: unknown) => (isRecord(message) ? contentText(message[contentKey]) : '')).join('\n');
}

/** A bearer token from an Authorization header, if there is a non-empty one. */
export function bearerToken(headers: Record<string, string>): string | undefined {
  const match = /^Bearer\s+(\S+)/i.exec(headers['authorization'] ?? '');
  return match?.[1];
}
