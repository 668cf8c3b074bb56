/**
 * The list calls' query as the server reads it: the contract's ideaListQuery (packages/core), with
 * every text field built by core's text builders (control characters answer 400), and what the
 * values mean: dates, the cursor, the filters.
 */
import { ideaListQuery, isIsoDate, singleLineText, trackRecordQuery } from '@signalboard/core';
import { badRequest } from '../../lib/errors';

/** The spec's call answers the first page: at most this many ideas. */
export const DEFAULT_PAGE_SIZE = 100;

const STATUS_PATTERN = /^(active|successful|partial|failed)(,(active|successful|partial|failed))*$/;
const TYPE_PATTERN = /^(trend|drop|level)(,(trend|drop|level))*$/;

/** ideaListQuery with checked text fields (same names, rules and messages). */
export const checkedIdeaListQuery = ideaListQuery.extend({
  status: singleLineText('status', { max: 200, examples: ['active', 'successful,failed'] })
    .regex(STATUS_PATTERN, 'status must be a comma-separated list of active, successful, partial, failed')
    .optional(),
  from: singleLineText('from', { max: 40, examples: ['2026-01-01', '2026-01-01T14:30:00Z'] }).optional(),
  to: singleLineText('to', { max: 40, examples: ['2026-12-31'] }).optional(),
  symbol: singleLineText('symbol', { max: 20, maxMessage: 'symbol must be at most 20 characters', examples: ['AAPL', 'aa'] }).optional(),
  type: singleLineText('type', { max: 50, examples: ['trend', 'drop,level'] })
    .regex(TYPE_PATTERN, 'type must be a comma-separated list of trend, drop, level')
    .optional(),
  cursor: singleLineText('cursor', { max: 200, maxMessage: 'cursor is not valid' }).optional(),
});

/** trackRecordQuery with checked text fields. */
export const checkedTrackRecordQuery = trackRecordQuery.extend({
  from: singleLineText('from', { max: 40, examples: ['2026-01-01'] }).optional(),
  to: singleLineText('to', { max: 40, examples: ['2026-12-31'] }).optional(),
  symbol: singleLineText('symbol', { max: 20, maxMessage: 'symbol must be at most 20 characters', examples: ['AAPL'] }).optional(),
});

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

/** The next page's cursor: where the page ended (created_at, id), opaque to clients. */
export function encodeCursor(position: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(decoded) && decoded.length === 2 && typeof decoded[0] === 'string' && typeof decoded[1] === 'string' && decoded[1].length > 0) {
      const createdAt = new Date(decoded[0]);
      if (Number.isFinite(createdAt.getTime()) && createdAt.toISOString() === decoded[0]) return { createdAt, id: decoded[1] };
    }
  } catch {
    // not base64url JSON: answered below
  }
  throw badRequest('cursor is not valid: pass the X-Next-Cursor of the previous page as it came');
}
