import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { alertChannel } from './alert-delivery-settings';
import { WEBHOOK_KINDS } from './alert-channels';
import { ALERT_TYPE_NAMES, ALERT_TYPES } from './alert-rules';

/**
 * Alert history (issue 15 "Alert System II": "every alert with the rule as it was, the data that fired
 * it, each channel's status timeline and reason; filters by type, symbol and date; CSV export").
 *
 * Calls (both the signed-in user's only):
 * - POST api/get_alert_history, JSON body `AlertHistoryQuery` → `{ data: { items, total, page, limit, next? } }`
 * - GET api/alert_history.csv?alert_type=&symbol=&from=&to=&time_zone= → text/csv, one line per
 *   delivery (an alert with no delivery row: one line with the channel columns empty); page and limit
 *   are ignored, every matching alert is exported (newest first, at most ALERT_HISTORY_CSV_MAX_ALERTS).
 */

/**
 * Every alert_type an alert event can carry: the eleven rule types, the two saved-idea kinds, and the
 * digests the delivery worker sends (quiet hours over, SMS cap freed: symbol = the channel).
 */
export const ALERT_HISTORY_TYPES = [...ALERT_TYPES, 'SAVED_OPTION_TRADE', 'SAVED_STOCK_SCANNER', 'DIGEST'] as const;
export type AlertHistoryType = (typeof ALERT_HISTORY_TYPES)[number];

export const ALERT_HISTORY_TYPE_NAMES: Readonly<Record<AlertHistoryType, string>> = {
  ...ALERT_TYPE_NAMES,
  SAVED_OPTION_TRADE: 'Saved option trade',
  SAVED_STOCK_SCANNER: 'Saved drop alert',
  DIGEST: 'Digest',
};

/** The name of a stored alert_type; an unknown one (a newer server's) is shown as it is. */
export const alertHistoryTypeName = (type: string): string => (ALERT_HISTORY_TYPE_NAMES as Record<string, string>)[type] ?? type;

/** The statuses of a delivery (docs/rules/alerts.md §4 "Delivery"): queued → sending → sent → delivered | failed | expired | suppressed. */
export const ALERT_DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'expired', 'suppressed'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** Each status in words, as the history shows it. */
export const ALERT_DELIVERY_STATUS_TEXTS: Readonly<Record<AlertDeliveryStatus, string>> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  expired: 'Expired',
  suppressed: 'Suppressed',
};

/** What each status means to the user (a tooltip, the CSV's status_text). */
export const ALERT_DELIVERY_STATUS_HINTS: Readonly<Record<AlertDeliveryStatus, string>> = {
  queued: 'Waiting to be sent (or held until quiet hours end).',
  sending: 'Being handed to the provider now.',
  sent: 'The provider accepted it; no delivery receipt yet.',
  delivered: 'The provider reported it delivered.',
  failed: 'It could not be delivered; the reason says why.',
  expired: 'It was too late to send (alerts are never sent stale).',
  suppressed: 'It was deliberately not sent; the reason says why.',
};

export const alertDeliveryStatusText = (status: string): string => (ALERT_DELIVERY_STATUS_TEXTS as Record<string, string>)[status] ?? status;

/**
 * The common reasons the evaluator and the delivery worker record, in words. A reason not listed
 * here is already a sentence for the user and is shown as it is.
 */
export const ALERT_DELIVERY_REASON_TEXTS: Readonly<Record<string, string>> = {
  quiet_hours: 'Held: quiet hours',
  paused: 'Suppressed: all alerts were paused',
  sms_cap: 'Suppressed: SMS cap reached',
  cap: 'Suppressed: SMS cap reached (10 an hour, 50 a day); counted in the next digest',
  sms_hourly_cap: 'Suppressed: SMS cap reached (10 an hour)',
  sms_daily_cap: 'Suppressed: SMS cap reached (50 a day)',
  digest: 'Sent in a digest',
  rule_paused: 'Suppressed: the rule fired too often and was paused',
  opted_out: 'Suppressed: you opted out (STOP)',
  unsubscribed: 'Suppressed: you unsubscribed',
  no_phone: 'Suppressed: no verified phone number',
  channel_problem: 'Suppressed: this channel has a problem (see Settings)',
  stale: 'Expired: too late to send',
  expired: 'Expired: too late to send',
  invalid_number: 'Failed: the phone number is not valid',
  hard_bounce: 'Failed: the e-mail address bounced',
  provider_error: 'Failed: the provider refused it',
  retries_exhausted: 'Failed: no answer after 5 tries',
  possibly_duplicate: 'Possibly sent twice',
};
export const POSSIBLY_DUPLICATE_TEXT = 'Possibly sent twice';

/** A reason in words: the known codes translated, anything else as recorded; null when there is none. */
export function alertDeliveryReasonText(reason: string | null | undefined): string | null {
  if (reason === null || reason === undefined || reason.trim() === '') return null;
  return ALERT_DELIVERY_REASON_TEXTS[reason.trim()] ?? reason;
}

export const ALERT_HISTORY_DEFAULT_LIMIT = 50;
export const ALERT_HISTORY_MAX_LIMIT = 200;
export const ALERT_HISTORY_CSV_MAX_ALERTS = 10_000;
export const ALERT_HISTORY_DEFAULT_TIME_ZONE = 'America/New_York';

export const ALERT_HISTORY_TYPE_MESSAGE = `alert_type must be one of: ${ALERT_HISTORY_TYPES.join(', ')}`;
export const ALERT_HISTORY_DATE_MESSAGE = (name: 'from' | 'to') => `${name} must be a date, YYYY-MM-DD`;
export const ALERT_HISTORY_RANGE_MESSAGE = 'from must be on or before to';
export const ALERT_HISTORY_PAGE_MESSAGE = 'page must be a whole number from 1';
export const ALERT_HISTORY_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ALERT_HISTORY_MAX_LIMIT}`;
export const ALERT_HISTORY_TIME_ZONE_MESSAGE = 'time_zone must be an IANA time zone, e.g. America/New_York';

/** YYYY-MM-DD that is a real calendar day. */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const day = (name: 'from' | 'to', example: string) =>
  singleLineText(name, { max: 10, maxMessage: ALERT_HISTORY_DATE_MESSAGE(name), typeError: ALERT_HISTORY_DATE_MESSAGE(name), examples: [example] })
    .refine((value) => value === '' || isCalendarDay(value), { message: ALERT_HISTORY_DATE_MESSAGE(name) })
    .optional();

/** A whole number sent as a JSON number or (in a query string) as digits. */
const wholeNumber = (message: string, min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );

function validTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The filters (POST body of get_alert_history; the query string of alert_history.csv). All optional:
 * - alert_type: one of ALERT_HISTORY_TYPES;
 * - symbol: case-insensitive "contains" on the alert's symbol;
 * - from / to: calendar days (YYYY-MM-DD), both inclusive, in `time_zone` (default America/New_York;
 *   the web app sends the browser's zone so the days are the ones the user sees);
 * - page (from 1) and limit (1–200, default 50). Empty strings count as not given.
 */
export const alertHistoryQuery = z
  .object({
    alert_type: z.preprocess((value) => (value === '' ? undefined : value), z.enum(ALERT_HISTORY_TYPES, { error: ALERT_HISTORY_TYPE_MESSAGE }).optional()),
    symbol: singleLineText('symbol', { max: 40, examples: ['AAPL'] }).optional(),
    from: day('from', '2026-11-01'),
    to: day('to', '2026-11-30'),
    time_zone: singleLineText('time_zone', { max: 64, maxMessage: ALERT_HISTORY_TIME_ZONE_MESSAGE, typeError: ALERT_HISTORY_TIME_ZONE_MESSAGE, examples: ['America/New_York'] })
      .refine((zone) => zone === '' || validTimeZone(zone), { message: ALERT_HISTORY_TIME_ZONE_MESSAGE })
      .optional(),
    page: wholeNumber(ALERT_HISTORY_PAGE_MESSAGE, 1, 1_000_000).optional(),
    limit: wholeNumber(ALERT_HISTORY_LIMIT_MESSAGE, 1, ALERT_HISTORY_MAX_LIMIT).optional(),
  })
  .strict()
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: ALERT_HISTORY_RANGE_MESSAGE });
export type AlertHistoryQuery = z.input<typeof alertHistoryQuery>;
export type AlertHistoryFilters = z.output<typeof alertHistoryQuery>;

/**
 * The UTC instant at which the calendar day `isoDay` (YYYY-MM-DD) starts in `timeZone`. Pure (Intl only):
 * the zone's offset is read at the guess and corrected once (enough across a DST change).
 */
export function zonedDayStartMs(isoDay: string, timeZone: string): number {
  const [year, month, dayOfMonth] = isoDay.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, dayOfMonth);
  const offsetAt = (ms: number) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
    const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
    return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - ms;
  };
  const guess = utcMidnight - offsetAt(utcMidnight);
  const corrected = utcMidnight - offsetAt(guess);
  return corrected;
}

/** The next calendar day of YYYY-MM-DD. */
export function nextIsoDay(isoDay: string): string {
  const [year, month, dayOfMonth] = isoDay.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, dayOfMonth + 1)).toISOString().slice(0, 10);
}

/** A status change of a delivery, oldest first. */
export const alertDeliveryStep = z.object({ status: z.string(), reason: z.string().nullable(), at: z.string() });
export type AlertDeliveryStep = z.infer<typeof alertDeliveryStep>;

/** One channel's delivery of an alert, with its status timeline. */
export const alertHistoryDelivery = z.object({
  /** 'sms' | 'email', or 'webhook' (issue 27): one delivery per endpoint, `endpoint` its name (null once deleted). */
  channel: z.union([alertChannel, z.literal('webhook')]),
  endpoint: z.string().nullable(),
  /** The endpoint's kind ('webhook' | 'discord' | 'ntfy'); null for SMS and e-mail and once deleted. */
  endpoint_kind: z.enum(WEBHOOK_KINDS).nullable(),
  status: z.string(),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  possibly_duplicate: z.boolean(),
  updated_at: z.string(),
  steps: z.array(alertDeliveryStep),
});
export type AlertHistoryDelivery = z.infer<typeof alertHistoryDelivery>;

/** One fired alert: the rule as it was, the data that fired it, and each channel's delivery (sms first). */
export const alertHistoryItem = z.object({
  id: z.number().int(),
  fired_at: z.string(),
  alert_type: z.string(),
  type_name: z.string(),
  symbol: z.string(),
  /** The SMS text. */
  message: z.string(),
  email_subject: z.string(),
  rule: z.record(z.string(), z.unknown()),
  /** price, previousClose?, changePercent?, threshold?, target?, direction?, level?, source, asOf (ISO), … */
  data: z.record(z.string(), z.unknown()),
  deliveries: z.array(alertHistoryDelivery),
});
export type AlertHistoryItem = z.infer<typeof alertHistoryItem>;

/** The answer of get_alert_history: a page of alerts, newest first; `next` is the next page's number when there is one. */
export const getAlertHistoryResponse = z.object({
  data: z.object({
    items: z.array(alertHistoryItem),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    next: z.number().int().optional(),
  }),
});
export type GetAlertHistoryResponse = z.infer<typeof getAlertHistoryResponse>;

/** The CSV's columns, in order (one line per delivery). */
export const ALERT_HISTORY_CSV_COLUMNS = [
  'fired_at',
  'alert_type',
  'type_name',
  'symbol',
  'message',
  'price',
  'source',
  'as_of',
  'channel',
  'status',
  'status_text',
  'reason',
  'reason_text',
  'attempts',
  'possibly_duplicate',
  'steps',
] as const;

/** Empty state sentences of the history. */
export const ALERT_HISTORY_EMPTY_MESSAGE = 'No alerts have fired yet.';
export const ALERT_HISTORY_NO_MATCH_MESSAGE = 'No alerts match these filters.';
