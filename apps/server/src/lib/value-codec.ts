/**
 * Values in the shared cache as bytes (MessagePack, msgpackr): typed arrays stay typed arrays
 * (a Float64Array, also a subarray view, comes back as a Float64Array of the same bits: NaN and -0
 * included), and plain JSON values come back equal. Numbers outside typed arrays are JSON numbers:
 * -0 there is 0, as in JSON. A key named `__proto__` is renamed (msgpackr's prototype-pollution guard).
 */
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, moreTypes: true });

export function encodeValue(value: unknown): Uint8Array {
  return packr.pack(value);
}

export function decodeValue<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
