/**
 * What the list calls' query values mean (the contract's ideaListQuery and trackRecordQuery validate
 * them): dates, the cursor, the page size.
 */
import { isIsoDate } from '@signalboard/core';
import { badRequest } from '../../lib/errors';

/** The spec's call answers the first page: at most this many ideas. */
export const DEFAULT_PAGE_SIZE = 100;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `from` / `to` as instants: an ISO 8601 instant, or YYYY-MM-DD (UTC midnight; `to` through the
 * end of that day). Anything else answers 400 naming the parameter.
 */
export function parseBound(name: 'from' | 'to', value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (isIsoDate(value)) {
    const start = Date.parse(`${value}T00:00:00.000Z`);
    return new Date(name === 'to' ? start + 86_400_000 - 1 : start);
  }
  const ms = INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw badRequest(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 instant (2026-01-02T14:30:00Z)`);
  return new Date(ms);
}

/** The next page's cursor: where the page ended (created_at, id; the profit too when sorted by it), opaque to clients. */
export function encodeCursor(position: { createdAt: Date; id: string; profit?: number }): string {
  const parts: unknown[] = [position.createdAt.toISOString(), position.id];
  if (position.profit !== undefined) parts.push(position.profit);
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string; profit?: number } {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(decoded) && (decoded.length === 2 || decoded.length === 3) && typeof decoded[0] === 'string' && typeof decoded[1] === 'string' && decoded[1].length > 0) {
      const createdAt = new Date(decoded[0]);
      const profit: unknown = decoded[2];
      if (decoded.length === 3 && !(typeof profit === 'number' && Number.isFinite(profit))) throw new Error('bad profit');
      if (Number.isFinite(createdAt.getTime()) && createdAt.toISOString() === decoded[0]) return { createdAt, id: decoded[1], ...(typeof profit === 'number' ? { profit } : {}) };
    }
  } catch {
    // not base64url JSON: answered below
  }
  throw badRequest('cursor is not valid: pass the X-Next-Cursor of the previous page as it came');
}
