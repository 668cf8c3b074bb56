/**
 * Shared argument checks of the indicator kernels. Bad arguments are programming errors, so they
 * throw a RangeError naming the function and the argument; odd data (too few bars) is not an error.
 */

/** A period, window or bar count: an integer of at least `minimum` (1 unless stated). */
export function assertPeriod(name: string, period: number, minimum = 1, label = 'period'): void {
  if (!Number.isInteger(period) || period < minimum) {
    throw new RangeError(`${name}: ${label} must be an integer of at least ${minimum}, got ${period}`);
  }
}

/** A non-negative finite fraction such as 0.015 for 1.5 %. */
export function assertFraction(name: string, fraction: number, label = 'fraction'): void {
  if (!Number.isFinite(fraction) || fraction < 0) {
    throw new RangeError(`${name}: ${label} must be a finite number of at least 0, got ${fraction}`);
  }
}

/** Parallel series (high, low, close, volume) must line up bar for bar. */
export function assertSameLength(name: string, ...arrays: ArrayLike<number>[]): void {
  // A plain loop: scans call this per symbol, and a closure per call shows in their profile.
  const length = arrays[0]?.length ?? 0;
  let same = true;
  for (let i = 1; i < arrays.length; i += 1) if (arrays[i]!.length !== length) same = false;
  if (!same) {
    throw new RangeError(`${name}: inputs must have the same length, got ${arrays.map((array) => array.length).join(', ')}`);
  }
}
