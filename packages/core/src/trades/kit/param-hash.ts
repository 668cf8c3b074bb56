import { sha256Hex } from './sha256';

/**
 * Canonical JSON (docs/rules/conventions.md §0.4 ParamHash): objects with their keys sorted by code point at
 * every depth, arrays in order, no whitespace, numbers and strings as JSON.stringify writes them.
 * Undefined object members are left out (as JSON.stringify does); non-finite numbers are refused,
 * since JSON would silently turn them into null and two different tables would hash alike.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`canonicalJson: ${value} is not a JSON number`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new Error(`canonicalJson: a ${typeof value} is not JSON`);
}

/** The first 16 hex digits of SHA-256 over the parameters' canonical JSON. */
export function paramHash(params: unknown): string {
  return sha256Hex(canonicalJson(params)).slice(0, 16);
}
