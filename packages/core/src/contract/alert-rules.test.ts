import { describe, expect, it } from 'vitest';
import {
  ALERT_CRYPTO_MAX_MESSAGE,
  ALERT_SCANS_MAX_MESSAGE,
  ALERT_SCANS_REQUIRED_MESSAGE,
  ALERT_SYMBOLS_MAX_MESSAGE,
  ALERT_SYMBOLS_REQUIRED_MESSAGE,
  ALERT_TARGET_PRICE_MESSAGE,
  ALERT_THRESHOLD_MESSAGE,
  ALERT_TYPE_MESSAGE,
  ALERT_TYPES,
  ALERT_TYPE_NAMES,
  ALERT_TYPE_SYMBOL_SOURCE,
  OPTION_ALERT_TICKERS,
  alertFixedSymbols,
  alertPreferencesProblem,
  alertSavedMessage,
  alertSymbolNotAllowedMessage,
  alertTargetMissingMessage,
  normalizeAlertSymbol,
  saveAlertPreferencesRequest,
} from './alert-rules';
import { QUIET_HOURS_SAME_MESSAGE, QUIET_HOURS_TIME_MESSAGE, TIME_ZONE_MESSAGE, inQuietHours, isDeliveryHeld, localTimeIn, saveAlertDeliverySettingsRequest } from './alert-delivery-settings';
import { formatIssues } from './common';

const msgOf = (schema: typeof saveAlertPreferencesRequest | typeof saveAlertDeliverySettingsRequest, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? undefined : formatIssues(result.error);
};
const symbols = (count: number) => Array.from({ length: count }, (_, i) => `S${i}`);
const delivery = { time_zone: 'Europe/Berlin', sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' }, email_quiet_hours: { enabled: false, start: '22:00', end: '07:00' }, paused: false };

describe('alert rules contract (spec §5, §9; docs/rules/alerts.md)', () => {
  it('has the spec\'s ten types with their names, then Custom Scan, and about 57 option tickers', () => {
    expect(ALERT_TYPES).toHaveLength(11);
    expect(ALERT_TYPES.at(-1)).toBe('CUSTOM_SCAN');
    expect(ALERT_TYPE_NAMES.CUSTOM_SCAN).toBe('Custom Scan');
    expect(alertSavedMessage('BITCOIN')).toBe('Cryptocurrency alert preferences saved successfully!');
    expect(ALERT_TYPE_NAMES['NEWS+TRUMP+MAG7+GNEWS']).toBe('TRUMP & MAGNIFICENT 7 BY GNEWS');
    expect(OPTION_ALERT_TICKERS).toHaveLength(57);
    expect(new Set(OPTION_ALERT_TICKERS).size).toBe(57);
  });

  it('answers every save message of §5 and docs/rules/alerts.md', () => {
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'NOPE' })).toBe(ALERT_TYPE_MESSAGE);
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'OPTION_ALERT', stock_symbols: [] })).toBe(ALERT_SYMBOLS_REQUIRED_MESSAGE);
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'OPTION_ALERT', stock_symbols: symbols(11) })).toBe(ALERT_SYMBOLS_MAX_MESSAGE);
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'BITCOIN', stock_symbols: symbols(11) })).toBe(ALERT_CRYPTO_MAX_MESSAGE);
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'] })).toBe(ALERT_THRESHOLD_MESSAGE);
    for (const threshold_value of [0, 100.5, -1, '5', null]) {
      expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value })).toBe(ALERT_THRESHOLD_MESSAGE);
    }
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value: 1 })).toBeUndefined();
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'CURRENT_PRICE', stock_symbols: ['nvda'], targets: [] })).toBe(alertTargetMissingMessage('NVDA'));
    for (const price of [0, -1, 1_000_000.01]) {
      expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'CURRENT_PRICE', stock_symbols: ['NVDA'], targets: [{ symbol: 'nvda', price, direction: 'above' }] })).toBe(ALERT_TARGET_PRICE_MESSAGE);
    }
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'BITCOIN', stock_symbols: ['BTC'], targets: [{ symbol: 'BTC', price: 1_000_000, direction: 'below' }] })).toBeUndefined();
    // The two drop types have no symbol selection.
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'STOCK_DROP_ALERTS', stock_symbols: [] })).toBeUndefined();
  });

  it('checks symbols against the given choice, normalized', () => {
    expect(alertPreferencesProblem({ alert_type: 'OPTION_ALERT', stock_symbols: ['spy', 'ZZZZ'] }, OPTION_ALERT_TICKERS)).toBe(alertSymbolNotAllowedMessage('OPTION_ALERT', 'ZZZZ'));
    expect(alertPreferencesProblem({ alert_type: 'GENERAL_NEWS', stock_symbols: ['economy macro'] }, ['Economy Macro'])).toBeNull();
    expect(normalizeAlertSymbol('GENERAL_NEWS', ' financial MARKETS ')).toBe('Financial Markets');
    expect(alertSymbolNotAllowedMessage('LEVEL_SYSTEM', 'X')).toMatch(/favorite/);
  });

  it('takes the user\'s saved scans for Custom Scan: ids as text, ten at most, only the given ones', () => {
    expect(ALERT_TYPE_SYMBOL_SOURCE.CUSTOM_SCAN).toBe('saved_scans');
    expect(alertFixedSymbols('saved_scans')).toBeNull();
    expect(normalizeAlertSymbol('CUSTOM_SCAN', ' 012 ')).toBe('12');
    expect(normalizeAlertSymbol('CUSTOM_SCAN', '0')).toBe('0');
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'CUSTOM_SCAN', stock_symbols: [] })).toBe(ALERT_SCANS_REQUIRED_MESSAGE);
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'CUSTOM_SCAN', stock_symbols: Array.from({ length: 11 }, (_, i) => String(i + 1)) })).toBe(ALERT_SCANS_MAX_MESSAGE);
    // The same id twice is one scan.
    expect(msgOf(saveAlertPreferencesRequest, { alert_type: 'CUSTOM_SCAN', stock_symbols: [...Array.from({ length: 10 }, (_, i) => String(i + 1)), '01'] })).toBeUndefined();
    expect(alertPreferencesProblem({ alert_type: 'CUSTOM_SCAN', stock_symbols: ['12', '7'] }, ['7', '12'])).toBeNull();
    expect(alertPreferencesProblem({ alert_type: 'CUSTOM_SCAN', stock_symbols: ['12', '99'] }, ['7', '12'])).toBe(
      'Scan 99 is not one of your saved scans: Custom Scan alerts watch your own scans only.',
    );
    expect(alertSymbolNotAllowedMessage('CUSTOM_SCAN', 'abc')).toBe('Scan abc is not one of your saved scans: Custom Scan alerts watch your own scans only.');
  });

  it('validates delivery settings', () => {
    expect(msgOf(saveAlertDeliverySettingsRequest, delivery)).toBeUndefined();
    expect(msgOf(saveAlertDeliverySettingsRequest, { ...delivery, time_zone: 'Mars/Olympus' })).toBe(TIME_ZONE_MESSAGE);
    expect(msgOf(saveAlertDeliverySettingsRequest, { ...delivery, sms_quiet_hours: { enabled: true, start: '24:00', end: '08:00' } })).toBe(QUIET_HOURS_TIME_MESSAGE);
    expect(msgOf(saveAlertDeliverySettingsRequest, { ...delivery, sms_quiet_hours: { enabled: true, start: '08:00', end: '08:00' } })).toBe(QUIET_HOURS_SAME_MESSAGE);
    const hours = { enabled: true, start: '21:00', end: '08:00' };
    expect([inQuietHours(hours, '21:00'), inQuietHours(hours, '03:00'), inQuietHours(hours, '08:00'), inQuietHours({ ...hours, enabled: false }, '23:00')]).toEqual([true, true, false, false]);
  });

  it('holds deliveries in quiet hours of the user\'s zone, and all of them while paused', () => {
    const at = new Date('2026-01-15T03:30:00Z'); // 22:30 in New York (EST), 04:30 in Berlin (CET)
    expect(localTimeIn(at, 'America/New_York')).toBe('22:30');
    expect(localTimeIn(at, 'Europe/Berlin')).toBe('04:30');
    expect(localTimeIn(new Date('2026-07-15T04:00:00Z'), 'America/New_York')).toBe('00:00');
    const base = { time_zone: 'America/New_York', sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' }, email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' }, paused: false };
    expect([isDeliveryHeld(base, 'sms', at), isDeliveryHeld(base, 'email', at)]).toEqual([true, false]);
    expect(isDeliveryHeld({ ...base, time_zone: 'Asia/Tokyo' }, 'sms', at)).toBe(false); // 12:30 in Tokyo
    expect(isDeliveryHeld({ ...base, paused: true }, 'email', at)).toBe(true);
  });
});
