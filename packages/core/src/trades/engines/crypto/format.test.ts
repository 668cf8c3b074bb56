import { describe, expect, it } from 'vitest';
import type { CryptoTrade } from '../../../contract/crypto-trades';
import { CRYPTO_CSV_COLUMNS, CRYPTO_DECIMALS, formatCryptoNumber, formatCryptoRow, roundCryptoValue } from './format';

/** spec §9: "price 8 decimals, RSI 2, ATR 4, drop % 2, volume 2, highs 8, swing 4". */

describe('crypto number formats', () => {
  it('the spec’s decimals per field', () => {
    expect(CRYPTO_DECIMALS).toMatchObject({ CurrentPrice: 8, RSIValue: 2, ATR_14_Day: 4, DropPercentage: 2, DropPercentage60: 2, VolumeLevel: 2, OneMonthHigh: 8, SixMonthHigh: 8, SwingLevel: 4 });
  });

  it('rounds half away from zero and writes exactly those decimals', () => {
    expect(formatCryptoNumber('CurrentPrice', 0.000012345678)).toBe('0.00001235');
    expect(formatCryptoNumber('CurrentPrice', 95000)).toBe('95000.00000000');
    expect(formatCryptoNumber('RSIValue', 45.4632124453)).toBe('45.46');
    expect(formatCryptoNumber('RSIValue', 70.005)).toBe('70.01');
    expect(formatCryptoNumber('ATR_14_Day', 1.3081375207)).toBe('1.3081');
    expect(formatCryptoNumber('DropPercentage', 16.666666)).toBe('16.67');
    expect(formatCryptoNumber('VolumeLevel', 2)).toBe('2.00');
    expect(formatCryptoNumber('SixMonthHigh', 150)).toBe('150.00000000');
    expect(formatCryptoNumber('SwingLevel', 0.123456)).toBe('0.1235');
    expect(formatCryptoNumber('NewsScore', -0.00001)).toBe('0.0000');
    expect(roundCryptoValue('SwingLevel', 0.12345)).toBe(0.1235);
  });

  it("a missing value is 'N/A' (the 6M high below 180 candles)", () => {
    expect(formatCryptoNumber('SixMonthHigh', null)).toBe('N/A');
    expect(formatCryptoNumber('ATR_14_Day', Number.NaN)).toBe('N/A');
    expect(roundCryptoValue('SixMonthHigh', null)).toBeNull();
  });

  it('formatCryptoRow formats every number field and keeps the others; the CSV columns are the spec’s fields', () => {
    const row = { Symbol: 'BTC', CurrentPrice: 95000.123456789, RSIValue: 55.5, ATR_14_Day: null, SixMonthHigh: null, IsSwingLevel: '1', Trend: 'Uptrend' } as unknown as CryptoTrade;
    const out = formatCryptoRow(row);
    expect(out).toMatchObject({ Symbol: 'BTC', CurrentPrice: '95000.12345679', RSIValue: '55.50', ATR_14_Day: 'N/A', SixMonthHigh: 'N/A', IsSwingLevel: '1', Trend: 'Uptrend' });
    expect(CRYPTO_CSV_COLUMNS).toEqual([
      'Symbol', 'CurrentPrice', 'RSIValue', 'ATR_14_Day', 'DropPercentage', 'DropPercentage60', 'VolumeLevel', 'OneMonthHigh', 'SixMonthHigh', 'SwingLevel', 'IsSwingLevel', 'Trend',
      'NewsSentiment', 'ShortTermSignal', 'MediumTermSignal', 'LongTermSignal', 'News', 'DateCreated', 'DateUpdated',
    ]);
  });
});
