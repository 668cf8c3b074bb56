import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/helpers';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows max hits a window, then says how long to wait', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(2, 60_000, clock);
    expect(limiter.hit('a')).toEqual({ allowed: true });
    expect(limiter.hit('a')).toEqual({ allowed: true });
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.advance(45_000);
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 15 });
    expect(limiter.hit('b')).toEqual({ allowed: true });
    clock.advance(15_000);
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });

  it('opens a new window exactly when the old one ends, and never extends it for refused hits', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 10_000, clock);
    limiter.hit('k');
    for (let i = 0; i < 9; i += 1) {
      clock.advance(1_000);
      expect(limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 9 - i });
    }
    clock.advance(999);
    expect(limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(limiter.hit('k')).toEqual({ allowed: true });
    expect(limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('rounds the wait up and never says 0 seconds', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock);
    limiter.hit('k');
    clock.advance(59_999);
    expect(limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    limiter.hit('j');
    clock.advance(500);
    expect(limiter.hit('j')).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('counts keys independently', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(3, 60_000, clock);
    for (let i = 0; i < 3; i += 1) expect(limiter.hit('x@example.com').allowed).toBe(true);
    expect(limiter.hit('x@example.com').allowed).toBe(false);
    for (let i = 0; i < 3; i += 1) expect(limiter.hit('y@example.com').allowed).toBe(true);
    expect(limiter.hit('y@example.com').allowed).toBe(false);
  });

  it('forgets a key on reset and stays within its key bound', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock, 3);
    limiter.hit('a');
    expect(limiter.hit('a').allowed).toBe(false);
    limiter.reset('a');
    expect(limiter.hit('a')).toEqual({ allowed: true });
    for (const key of ['b', 'c', 'd', 'e']) limiter.hit(key);
    // 'a' was evicted to make room, so it starts afresh.
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });

  it('evicts expired windows before live ones when full', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock, 2);
    limiter.hit('old');
    clock.advance(30_000);
    limiter.hit('live');
    clock.advance(31_000); // 'old' has expired, 'live' has not
    limiter.hit('new');
    expect(limiter.hit('live')).toEqual({ allowed: false, retryAfterSeconds: 29 });
  });
});
