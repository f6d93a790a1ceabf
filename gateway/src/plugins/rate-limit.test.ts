import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateLimiter, rateLimitMessage } from './rate-limit.js';

describe('RateLimiter', () => {
  it('allows the limit within a window, refuses beyond it until the window ends, then allows again', () => {
    let now = 0;
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, login: { max: 2, windowMs: 1_000 } }, () => now);
    expect(limiter.hit('login', 'ip a@x')).toBe(0);
    expect(limiter.hit('login', 'ip a@x')).toBe(0);
    now = 400;
    expect(limiter.hit('login', 'ip a@x')).toBe(600);
    expect(limiter.hit('login', 'ip b@x')).toBe(0);
    now = 1_000;
    expect(limiter.hit('login', 'ip a@x')).toBe(0);
  });

  it('keeps each limit’s counts apart', () => {
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, login: { max: 1, windowMs: 1_000 }, signup: { max: 1, windowMs: 1_000 } }, () => 0);
    expect(limiter.hit('login', 'k')).toBe(0);
    expect(limiter.hit('signup', 'k')).toBe(0);
    expect(limiter.hit('login', 'k')).toBeGreaterThan(0);
  });
});

describe('RateLimiter memory', () => {
  it('holds a bounded number of windows however many keys callers make up', () => {
    const limiter = new RateLimiter(DEFAULT_RATE_LIMITS, () => 0);
    for (let i = 0; i < 150_000; i++) limiter.hit('login', `203.0.113.7 victim${i}@example.com`);
    expect(limiter.size).toBeLessThanOrEqual(100_000);
  });
});

describe('rateLimitMessage', () => {
  it('says what was limited and for how many whole minutes, at least one', () => {
    expect(rateLimitMessage('login', 1)).toBe('Too many sign-in attempts. Please wait 1 minute and try again.');
    expect(rateLimitMessage('signup', 61_000)).toBe('Too many sign-up attempts from your network. Please wait 2 minutes and try again.');
  });
});
