import { z } from 'zod';

/** The audit's bound on `email`: an address an audit can be attached to can also sign in. */
export const MAX_EMAIL_LENGTH = 120;

// The same rule as AuditRequest's `email` (z.email().max(120)), so sign-in accepts every address an audit accepts.
const emailSchema = z.email().max(MAX_EMAIL_LENGTH);

/** The address normalised for storage and comparison (trimmed, lower-cased), or undefined when it is not a valid email. */
export function normalizeEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().toLowerCase();
  return emailSchema.safeParse(trimmed).success ? trimmed : undefined;
}
