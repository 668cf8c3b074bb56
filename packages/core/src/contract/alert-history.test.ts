import { describe, expect, it } from 'vitest';
import {
  ALERT_HISTORY_LIMIT_MESSAGE,
  ALERT_HISTORY_RANGE_MESSAGE,
  ALERT_HISTORY_TYPE_MESSAGE,
  alertDeliveryReasonText,
  alertHistoryQuery,
  alertHistoryTypeName,
  nextIsoDay,
  zonedDayStartMs,
} from './alert-history';
import { formatIssues } from './common';
import { uncheckedTextFields } from '../validation/text';

const problem = (input: unknown) => {
  const result = alertHistoryQuery.safeParse(input);
  return result.success ? null : formatIssues(result.error);
};

describe('alertHistoryQuery', () => {
  it('accepts no filter, every filter, and query-string numbers', () => {
    expect(alertHistoryQuery.parse({})).toEqual({});
    expect(alertHistoryQuery.parse({ alert_type: 'SAVED_OPTION_TRADE', symbol: ' aapl ', from: '2026-11-01', to: '2026-11-01', page: '2', limit: 10, time_zone: 'Europe/Berlin' })).toEqual({
      alert_type: 'SAVED_OPTION_TRADE',
      symbol: 'aapl',
      from: '2026-11-01',
      to: '2026-11-01',
      page: 2,
      limit: 10,
      time_zone: 'Europe/Berlin',
    });
    expect(alertHistoryQuery.parse({ alert_type: '' })).toEqual({});
  });

  it('refuses bad filters with a message naming the field', () => {
    expect(problem({ alert_type: 'NOPE' })).toBe(ALERT_HISTORY_TYPE_MESSAGE);
    expect(problem({ from: '2026-02-30' })).toBe('from must be a date, YYYY-MM-DD');
    expect(problem({ to: '20261101' })).toBe('to must be a date, YYYY-MM-DD');
    expect(problem({ from: '2026-11-02', to: '2026-11-01' })).toBe(ALERT_HISTORY_RANGE_MESSAGE);
    expect(problem({ limit: 0 })).toBe(ALERT_HISTORY_LIMIT_MESSAGE);
    expect(problem({ limit: '1.5' })).toBe(ALERT_HISTORY_LIMIT_MESSAGE);
    expect(problem({ page: 0 })).toBe('page must be a whole number from 1');
    expect(problem({ time_zone: 'Mars/Base' })).toBe('time_zone must be an IANA time zone, e.g. America/New_York');
    expect(problem({ symbol: 'A\u0000' })).toBe('symbol must not contain line breaks or other control characters');
    expect(problem({ extra: 1 })).toMatch(/extra/);
  });

  it('builds every text field with the text builders', () => {
    expect(uncheckedTextFields(alertHistoryQuery)).toEqual([]);
  });
});

describe('days in a time zone', () => {
  it('finds the UTC start of a local day, across DST', () => {
    expect(new Date(zonedDayStartMs('2026-11-20', 'America/New_York')).toISOString()).toBe('2026-11-20T05:00:00.000Z');
    expect(new Date(zonedDayStartMs('2026-07-01', 'America/New_York')).toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(new Date(zonedDayStartMs('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(zonedDayStartMs('2026-03-09', 'America/New_York')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(new Date(zonedDayStartMs('2026-11-20', 'Asia/Tokyo')).toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(new Date(zonedDayStartMs('2026-11-20', 'UTC')).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(nextIsoDay('2026-12-31')).toBe('2027-01-01');
  });
});

describe('texts', () => {
  it('names types and reasons in words, and keeps unknown ones as recorded', () => {
    expect(alertHistoryTypeName('PERCENT_DROP')).toBe('Percent Drop');
    expect(alertHistoryTypeName('SAVED_STOCK_SCANNER')).toBe('Saved drop alert');
    expect(alertHistoryTypeName('FUTURE_TYPE')).toBe('FUTURE_TYPE');
    expect(alertDeliveryReasonText('quiet_hours')).toBe('Held: quiet hours');
    expect(alertDeliveryReasonText('sms_cap')).toBe('Suppressed: SMS cap reached');
    expect(alertDeliveryReasonText('Twilio 21211: invalid To number')).toBe('Twilio 21211: invalid To number');
    expect(alertDeliveryReasonText(null)).toBeNull();
    expect(alertDeliveryReasonText('  ')).toBeNull();
  });
});
