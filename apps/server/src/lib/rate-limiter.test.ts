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

  it('forgets a key on reset and stays within its key bound', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock, 3);
    limiter.hit('a');
    limiter.reset('a');
    expect(limiter.hit('a')).toEqual({ allowed: true });
    for (const key of ['b', 'c', 'd', 'e']) limiter.hit(key);
    // 'a' was evicted to make room, so it starts afresh.
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });
});
