import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The configured SESSION_SECRET, or one generated once and kept (mode 600) in DATA_DIR. */
export function ensureSessionSecret(dataDir: string, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  const folder = resolve(dataDir);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'session-secret');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  // 'wx' fails if another process wrote it first; then theirs wins and we read it back.
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(path, 'utf8').trim();
  }
}
