/** Time comes in through a clock so tests of limits and expiry never wait. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

export const nowSeconds = (clock: Clock) => Math.floor(clock.nowMs() / 1000);
