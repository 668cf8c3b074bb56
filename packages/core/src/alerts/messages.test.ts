import { describe, expect, it } from 'vitest';
import { evaluatePriceWatch } from './evaluate';
import { fitSms, formatAlertPercent, formatAlertPrice, newYorkClock, sourceSuffix, truncateText } from './format';
import {
  cryptoLabelChangeMessage,
  dropItemsMessage,
  newsBatchMessage,
  optionTradeOpenedMessage,
  savedIdeaEventMessage,
  swingProgressMessage,
} from './messages';

/** 14:05 New York (EST). */
const T0 = Date.UTC(2026, 10, 24, 19, 5);
/** 14:05 New York in daylight time (EDT, UTC−4). */
const SUMMER = Date.UTC(2026, 6, 15, 18, 5);
const SIM = { source: 'Simulated market', asOfMs: T0 };

describe('formats', () => {
  it('writes prices with two decimals, thousands separators from 1,000, and more decimals below 1', () => {
    expect(formatAlertPrice(212.4)).toBe('212.40');
    expect(formatAlertPrice(999.999)).toBe('1,000.00');
    expect(formatAlertPrice(96_000)).toBe('96,000.00');
    expect(formatAlertPrice(1_000_000)).toBe('1,000,000.00');
    expect(formatAlertPrice(0.08123)).toBe('0.0812');
    expect(formatAlertPrice(0.5)).toBe('0.50');
  });

  it('writes percentages with the real minus sign', () => {
    expect(formatAlertPercent(-5.31)).toBe('\u22125.3%');
    expect(formatAlertPercent(2)).toBe('+2.0%');
    expect(formatAlertPercent(-0.04)).toBe('0.0%');
  });

  it('writes New York time in both standard and daylight time', () => {
    expect(newYorkClock(T0)).toBe('14:05 ET');
    expect(newYorkClock(SUMMER)).toBe('14:05 ET');
    expect(newYorkClock(Date.UTC(2026, 10, 24, 14, 30))).toBe('09:30 ET');
  });

  it('names the source and the time', () => {
    expect(sourceSuffix('Finnhub', T0)).toBe(' · Finnhub 14:05 ET');
    expect(sourceSuffix(undefined, T0)).toBe(' · 14:05 ET');
    expect(sourceSuffix(undefined, undefined)).toBe('');
  });

  it('cuts safely: never past 160, never inside a surrogate pair, the suffix kept', () => {
    const long = 'x'.repeat(300);
    const sms = fitSms(long, ' · Finnhub 14:05 ET');
    expect(sms.length).toBe(160);
    expect(sms.endsWith('… · Finnhub 14:05 ET')).toBe(true);
    const emoji = `${'a'.repeat(8)}😀😀`;
    const cut = truncateText(emoji, 10);
    expect(cut.length).toBeLessThanOrEqual(10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
    expect(fitSms('short', ' · X 14:05 ET')).toBe('short · X 14:05 ET');
  });
});

describe('price alert messages stay within 160 characters', () => {
  it('with a long symbol, source and levels', () => {
    const watch = {
      userId: 1,
      alertType: 'LEVEL_SYSTEM' as const,
      symbol: 'VERYLONGSYMBOL.TO',
      levels: [{ price: 999_999.99, kind: 'resistance' as const, source: 'volume-profile and swing confluence of several sessions' }],
      ruleStamp: 1,
    };
    const r = evaluatePriceWatch(
      watch,
      { ruleStamp: 1, armed: true, triggerPrice: null, lastFiredAtMs: null, lastFiredSession: null, lastPrice: null },
      { symbol: watch.symbol, price: 999_999.5, previousClose: 999_000, asOfMs: T0, source: 'A data source with a very long name indeed, really very long', atr14: 10 },
      { nowMs: T0, refreshMs: 15_000, marketOpen: true, session: '2026-11-24' },
    );
    expect(r.fired!.smsText.length).toBeLessThanOrEqual(160);
    expect(r.fired!.smsText).toContain('14:05 ET');
    expect(r.fired!.smsText.startsWith('VERYLONGSYMBOL.TO at resistance 999,999.99')).toBe(true);
  });
});

describe('event messages', () => {
  it('a new option trade', () => {
    const m = optionTradeOpenedMessage({ symbol: 'NVDA', type: 'CALL', expiration: '2026-12-19', strike: 150, entry: 4.1, strength: 75, ...SIM });
    expect(m.smsText).toBe('New CALL NVDA 2026-12-19 150C, entry 4.10, strength 75/100 · Simulated market 14:05 ET');
    expect(m.emailSubject).toBe('Signalboard alert: New CALL NVDA 2026-12-19 150C (Alert New Options)');
    expect(m.emailText).toContain('Strength: 75/100');
    expect(m.emailText).toContain('As of: 14:05 ET (2026-11-24T19:05:00.000Z)');
    const put = optionTradeOpenedMessage({ symbol: 'SPY', type: 'PUT', expiration: '2026-12-19', strike: 652.5, entry: 3, strength: 41.6 });
    expect(put.smsText).toBe('New PUT SPY 2026-12-19 652.5P, entry 3.00, strength 42/100');
  });

  it('a daily pass of new drop items, and "+N more" when they do not fit', () => {
    const m = dropItemsMessage([{ symbol: 'AAPL', tradeType: 'S', entry: 212.4 }, { symbol: 'MSFT', tradeType: 'L' }, { symbol: 'NVDA', tradeType: 'O', entry: 4.1 }], SIM);
    expect(m.smsText).toBe('3 new drop items: AAPL Short at 212.40, MSFT Long, NVDA Option at 4.10 · Simulated market 14:05 ET');
    expect(m.emailSubject).toBe('Signalboard alert: 3 new drop items (Stock Drop Best of S&P 500)');
    expect(m.emailText).toContain('- MSFT Long');
    const many = dropItemsMessage(Array.from({ length: 40 }, (_, i) => ({ symbol: `SYM${i}`, tradeType: 'S', entry: 100 + i })), SIM);
    expect(many.smsText.length).toBeLessThanOrEqual(160);
    expect(many.smsText).toMatch(/^40 new drop items: SYM0 Short at 100\.00, .* \+\d+ more · Simulated market 14:05 ET$/);
    expect(many.emailText).toContain('- SYM39 Short at 139.00');
    expect(dropItemsMessage([{ symbol: 'AAPL', tradeType: 'S' }]).smsText).toBe('1 new drop item: AAPL Short');
    expect(() => dropItemsMessage([])).toThrow(RangeError);
  });

  it('a swing-trade pass', () => {
    const m = swingProgressMessage([
      { symbol: 'AAPL', kind: 'opened', price: 212.4 },
      { symbol: 'MSFT', kind: 'target', price: 521.3, level: 520 },
    ]);
    expect(m.smsText).toBe('Swing trades: AAPL opened at 212.40, MSFT target 520.00 hit at 521.30');
    expect(m.emailSubject).toBe('Signalboard alert: swing trades 1 opened, 1 target hit (Stock Drop Alerts Swing Trade Scanner)');
    expect(() => swingProgressMessage([])).toThrow(RangeError);
  });

  it("a saved idea's events", () => {
    const m = savedIdeaEventMessage({ kind: 'target', screen: 'option', symbol: 'NVDA', label: 'NVDA 2026-12-19 150C', price: 5.33, ...SIM });
    expect(m.smsText).toBe('NVDA 2026-12-19 150C: target hit at 5.33 (saved option alert) · Simulated market 14:05 ET');
    expect(m.emailSubject).toBe('Signalboard alert: NVDA target hit (saved option alert)');
    expect(savedIdeaEventMessage({ kind: 'stop', screen: 'drop', symbol: 'AAPL', label: 'Short', price: 190 }).smsText).toBe('AAPL Short: stop hit at 190.00 (saved drop alert)');
    expect(savedIdeaEventMessage({ kind: 'time_exit', screen: 'drop', symbol: 'AAPL', label: 'Long', price: 190 }).smsText).toContain('time exit at 190.00');
    expect(savedIdeaEventMessage({ kind: 'deactivated', screen: 'drop', symbol: 'AAPL', label: '', price: 190 }).smsText).toBe('AAPL: deactivated at 190.00 (saved drop alert)');
  });

  it("a crypto signal's label change", () => {
    const m = cryptoLabelChangeMessage({ symbol: 'BTC', horizon: 'Short', from: 'Hold', to: 'Buy', price: 96_120.55, source: 'Binance', asOfMs: T0 });
    expect(m.smsText).toBe('BTC short-term signal Hold → Buy at 96,120.55 · Binance 14:05 ET');
    expect(m.emailSubject).toBe('Signalboard alert: BTC short-term signal Buy (Cryptocurrency)');
  });

  it('a news batch: count, top 3 headlines, gist, within 160', () => {
    const short = newsBatchMessage({ count: 2, headlines: ['Fed holds rates', 'Payrolls beat'], gist: 'Rates on hold', topic: 'Economy Monetary', ...SIM });
    expect(short.smsText).toBe('2 new articles (Economy Monetary): Fed holds rates | Payrolls beat — Rates on hold · Simulated market 14:05 ET');
    expect(short.emailSubject).toBe('Signalboard alert: 2 new articles (Economy Monetary) (General Market News)');
    const long = newsBatchMessage({
      count: 12,
      headlines: ['A'.repeat(90), `B${'b'.repeat(89)}`, `C${'c'.repeat(89)}`, 'D is the fourth and is left out'],
      gist: `The analyst's gist ${'g'.repeat(100)}`,
      topic: 'NVDA',
      typeName: 'TRUMP & MAGNIFICENT 7 BY GNEWS',
      source: 'GNews',
      asOfMs: T0,
    });
    expect(long.smsText.length).toBeLessThanOrEqual(160);
    expect(long.smsText.startsWith('12 new articles (NVDA): AAAA')).toBe(true);
    expect(long.smsText).toContain(' | Bbbb');
    expect(long.smsText).toContain(' | Cccc');
    expect(long.smsText).toContain(" — The analyst's gist");
    expect(long.smsText.endsWith(' · GNews 14:05 ET')).toBe(true);
    expect(long.smsText).not.toContain('fourth');
    expect(long.emailSubject).toBe('Signalboard alert: 12 new articles (NVDA) (TRUMP & MAGNIFICENT 7 BY GNEWS)');
    expect(long.emailText).toContain(`1. ${'A'.repeat(90)}`);
    expect(newsBatchMessage({ count: 1, headlines: ['One\nline'], gist: '' }).smsText).toBe('1 new article: One line');
  });
});
