import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { createAuthFailureLimiter, failureAddressOf } from './limit-auth-failures.ts';

const requestFrom = (ip: string) => ({ ip, socket: {} }) as unknown as Request;

describe('the address failed checks are counted under', () => {
  it('should count IPv4 as itself, an IPv4-mapped IPv6 address as its IPv4, and IPv6 by its /64', () => {
    expect(failureAddressOf(requestFrom('203.0.113.7'))).toBe('203.0.113.7');
    expect(failureAddressOf(requestFrom('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    // Two addresses of one /64 (one subscriber) are one client; the next /64 is another.
    expect(failureAddressOf(requestFrom('2001:db8:1:2::5'))).toBe('2001:db8:1:2::/64');
    expect(failureAddressOf(requestFrom('2001:db8:1:2:ffff:ffff:ffff:ffff'))).toBe('2001:db8:1:2::/64');
    expect(failureAddressOf(requestFrom('2001:db8:1:3::5'))).toBe('2001:db8:1:3::/64');
  });
});

describe('createAuthFailureLimiter', () => {
  it('should let an address fail perMinute times, then make it wait, and leave other addresses alone', async () => {
    const limiter = createAuthFailureLimiter(3);
    expect(limiter.quiet()).toBe(true); // nothing failed yet: nobody is looked up
    for (let i = 0; i < 3; i += 1) {
      expect(await limiter.waitSeconds('198.51.100.1')).toBe(0);
      await limiter.failed('198.51.100.1');
    }
    expect(limiter.quiet()).toBe(false);
    const wait = await limiter.waitSeconds('198.51.100.1');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limiter.waitSeconds('198.51.100.2')).toBe(0);
  });

  it('should never refuse with a limit of 0', async () => {
    const limiter = createAuthFailureLimiter(0);
    for (let i = 0; i < 100; i += 1) await limiter.failed('198.51.100.1');
    expect(await limiter.waitSeconds('198.51.100.1')).toBe(0);
    expect(limiter.quiet()).toBe(true);
  });
});
