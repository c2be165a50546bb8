import { describe, expect, it } from 'vitest';
import { createSessionToken, verifySessionToken } from './session.js';

const SECRET = 's'.repeat(48);

describe('session tokens', () => {
  it('round-trips a signed, expiring session', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const token = createSessionToken('Owner@Acme.example', SECRET, now, 3600);
    expect(verifySessionToken(token, SECRET, now)).toEqual({ email: 'owner@acme.example', expiresAt: now.getTime() / 1000 + 3600 });
  });

  it('refuses an expired, tampered, re-signed or malformed token', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const token = createSessionToken('owner@acme.example', SECRET, now, 60);
    expect(verifySessionToken(token, SECRET, new Date(now.getTime() + 61_000))).toBeUndefined();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ email: 'attacker@evil.example', exp: 9_999_999_999, v: 1 })).toString('base64url');
    expect(verifySessionToken(`${forged}.${signature}`, SECRET, now)).toBeUndefined();
    expect(verifySessionToken(`${payload}.${signature}x`, SECRET, now)).toBeUndefined();
    expect(verifySessionToken(token, 'another-secret-of-enough-length-000000', now)).toBeUndefined();
    expect(verifySessionToken('garbage', SECRET, now)).toBeUndefined();
    expect(verifySessionToken('a.b.c', SECRET, now)).toBeUndefined();
  });
});
