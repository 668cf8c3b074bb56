import { describe, expect, it } from 'vitest';
import { ALERT_SMS_MAX_CHARS } from './format';
import { dayNumber, newYorkInstantMs } from '../market/trading-calendar';
import { customScanEntriesMessage, customScanIntradayMessage } from './messages';

const BASE = {
  scanName: 'Oversold in an uptrend',
  formula: 'rsi(14) < 30 and close > sma(200)',
  universe: 'sp500' as const,
  session: '2026-12-03',
  source: 'Simulated market',
};

describe('customScanEntriesMessage (CUSTOM_SCAN)', () => {
  it('names the new symbols, the conditions, the session and the source in both channels', () => {
    const message = customScanEntriesMessage({
      ...BASE,
      entries: [
        { symbol: 'AAPL', price: 212.4, changePct: 1.234, values: [{ label: 'RSI(14)', value: 27.354 }, { label: 'SMA(200)', value: 198.2 }] },
        { symbol: 'MSFT', price: 498.2, changePct: -0.5, values: [{ label: 'RSI(14)', value: 29 }, { label: 'SMA(200)', value: null }] },
      ],
    });
    expect(message.smsText).toBe('New in "Oversold in an uptrend": AAPL 212.40, MSFT 498.20 | rsi(14) < 30 and close > sma(200) · Simulated market 2026-12-03 close');
    expect(message.emailSubject).toBe('Signalboard alert: 2 new in "Oversold in an uptrend" (Custom Scan)');
    expect(message.emailText.split('\n')).toEqual([
      '2 symbols newly match your saved scan "Oversold in an uptrend" at the close of 2026-12-03:',
      '',
      '- AAPL 212.40 (+1.2%): RSI(14) 27.35, SMA(200) 198.20',
      '- MSFT 498.20 (\u22120.5%): RSI(14) 29, SMA(200) n/a',
      '',
      'Conditions: rsi(14) < 30 and close > sma(200)',
      'Universe: S&P 500',
      'Source: Simulated market',
      "As of: the close of 2026-12-03 (that session's daily bars)",
    ]);
  });

  it('keeps the SMS within 160 characters: as many symbols as fit, then "+N more", the conditions cut, the session kept', () => {
    const entries = Array.from({ length: 40 }, (_, index) => ({ symbol: `SYM${index}`, price: 1234.5 + index }));
    const message = customScanEntriesMessage({
      ...BASE,
      scanName: 'A very long scan name that goes on and on',
      formula: 'rsi(14) < 30 and close > sma(200) and pct_below_high(21) >= 10 and rvol >= 1.5',
      entries,
    });
    expect(message.smsText.length).toBeLessThanOrEqual(ALERT_SMS_MAX_CHARS);
    expect(message.smsText).toBe('New in "A very long scan na…": SYM0 1,234.50, SYM1 1,235.50 +38 more | rsi(14) < 30 and close > sma(200) and p… · Simulated market 2026-12-03 close');
    // Every symbol is in the e-mail.
    for (const entry of entries) expect(message.emailText).toContain(`- ${entry.symbol} `);
    expect(message.emailText).toContain('Conditions: rsi(14) < 30 and close > sma(200) and pct_below_high(21) >= 10 and rvol >= 1.5');
  });

  it('reads one symbol in the singular, without a price when none is known, and refuses an empty list', () => {
    const message = customScanEntriesMessage({ ...BASE, universe: 'crypto', entries: [{ symbol: 'BTC', price: null }] });
    expect(message.smsText).toBe('New in "Oversold in an uptrend": BTC | rsi(14) < 30 and close > sma(200) · Simulated market 2026-12-03 close');
    expect(message.emailText).toMatch(/^1 symbol newly matches your saved scan/);
    expect(message.emailText).toContain('Universe: Crypto');
    expect(() => customScanEntriesMessage({ ...BASE, entries: [] })).toThrow(RangeError);
  });
});

describe('customScanIntradayMessage (CUSTOM_SCAN during the session)', () => {
  /** Thursday 2026-12-03, 11:05 New York. */
  const AS_OF = newYorkInstantMs(dayNumber('2026-12-03'), 11 * 60 + 5);
  const INTRADAY = { ...BASE, asOfMs: AS_OF };

  it('says intraday, names the symbols at their live price, the conditions, the source and the time', () => {
    const message = customScanIntradayMessage({
      ...INTRADAY,
      entries: [{ symbol: 'NVDA', price: 180.2, changePct: -2.04, values: [{ label: 'RSI(14)', value: 28.5 }, { label: 'SMA(200)', value: 150 }] }],
    });
    expect(message.smsText).toBe('Intraday new in "Oversold in an uptrend": NVDA 180.20 | rsi(14) < 30 and close > sma(200) · Simulated market 11:05 ET');
    expect(message.emailSubject).toBe('Signalboard alert: 1 new intraday in "Oversold in an uptrend" (Custom Scan)');
    expect(message.emailText.split('\n')).toEqual([
      '1 symbol newly matches your saved scan "Oversold in an uptrend" during the session of 2026-12-03, on the live price:',
      '',
      '- NVDA 180.20 (\u22122.0%): RSI(14) 28.50, SMA(200) 150',
      '',
      'Conditions: rsi(14) < 30 and close > sma(200)',
      'Universe: S&P 500',
      'Source: Simulated market',
      "As of: 11:05 ET (2026-12-03T16:05:00.000Z), the live price as the session's close so far, after the daily bars of the sessions before",
      'The session is not over: its close may leave these symbols out of the scan. The pass after the close does not alert them again.',
    ]);
  });

  it('keeps the SMS within 160 characters with the source and time whole; the e-mail lists every symbol', () => {
    const entries = Array.from({ length: 30 }, (_, index) => ({ symbol: `SYM${index}`, price: 1234.5 + index }));
    const message = customScanIntradayMessage({
      ...INTRADAY,
      scanName: 'A very long scan name that goes on and on',
      formula: 'rsi(14) < 30 and close > sma(200) and pct_below_high(21) >= 10 and change_pct(1) <= -3',
      source: 'A market data source with a rather long name indeed, longer than forty',
      entries,
    });
    expect(message.smsText.length).toBeLessThanOrEqual(ALERT_SMS_MAX_CHARS);
    expect(message.smsText).toMatch(/^Intraday new in "A very long scan na…": SYM0 1,234\.50.* \+\d+ more \| rsi\(14\) < 30 and close > sma\(200\) and p… · A market data source with a rather long… 11:05 ET$/);
    for (const entry of entries) expect(message.emailText).toContain(`- ${entry.symbol} `);
    // Whatever the lengths, never over 160.
    for (const length of [1, 5, 80, 400]) {
      const long = customScanIntradayMessage({ ...INTRADAY, scanName: 'N'.repeat(length), formula: 'close > 1 and '.repeat(length), entries: entries.slice(0, Math.max(1, length % 30)) });
      expect(long.smsText.length).toBeLessThanOrEqual(ALERT_SMS_MAX_CHARS);
      expect(long.smsText).toContain('11:05 ET');
    }
  });

  it('refuses an empty list', () => {
    expect(() => customScanIntradayMessage({ ...INTRADAY, entries: [] })).toThrow(RangeError);
  });
});
