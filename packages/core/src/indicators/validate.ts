/** Shared argument checks of the indicator kernels. */
export function assertPeriod(name: string, period: number, minimum = 1): void {
  if (!Number.isInteger(period) || period < minimum) {
    throw new RangeError(`${name}: period must be an integer of at least ${minimum}, got ${period}`);
  }
}

export function assertSameLength(name: string, ...arrays: ArrayLike<number>[]): void {
  const length = arrays[0]?.length ?? 0;
  if (arrays.some((array) => array.length !== length)) throw new RangeError(`${name}: inputs must have the same length`);
}
