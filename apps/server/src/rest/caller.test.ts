import { describe, expect, it } from 'vitest';
import { callerKeyFromAddress } from './caller.js';

describe('callerKeyFromAddress', () => {
  it('keeps IPv4 and folds IPv4-mapped IPv6 to IPv4', () => {
    expect(callerKeyFromAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(callerKeyFromAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(callerKeyFromAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('groups IPv6 callers by their /64 whatever the spelling', () => {
    const key = callerKeyFromAddress('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd');
    expect(key).toBe('2001:db8:85a3:1::/64');
    expect(callerKeyFromAddress('2001:0db8:85a3:0001::1')).toBe(key);
    expect(callerKeyFromAddress('2001:db8:85a3:2::1')).not.toBe(key);
    expect(callerKeyFromAddress('::1')).toBe('0:0:0:0::/64');
    expect(callerKeyFromAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
