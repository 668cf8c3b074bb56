import { describe, expect, it } from 'vitest';
import { dayNumber } from '../market/trading-calendar';
import { normalisePriceHeader } from './detect';
import { isMissingValue, normalisePriceSymbol, parsePriceDate, parsePriceNumber, symbolFromFileName } from './price-values';
import { PRICE_DATE_FORMATS, type PriceDateFormat } from './types';

describe('parsePriceDate', () => {
  const leapDay = dayNumber('2024-02-29');
  const written: Record<PriceDateFormat, string> = {
    'YYYY-MM-DD': '2024-02-29',
    YYYYMMDD: '20240229',
    'YYYY/MM/DD': '2024/02/29',
    'MM/DD/YYYY': '02/29/2024',
    'DD/MM/YYYY': '29/02/2024',
    'DD.MM.YYYY': '29.02.2024',
    'DD-MM-YYYY': '29-02-2024',
  };

  it('reads every format, and nothing written in another', () => {
    for (const format of PRICE_DATE_FORMATS) {
      expect(parsePriceDate(written[format], format), format).toBe(leapDay);
      for (const other of PRICE_DATE_FORMATS) {
        if (other !== format) expect(parsePriceDate(written[other], format), `${other} as ${format}`).toBeNaN();
      }
    }
  });

  it('takes one-digit days and months where there is a separator, and ignores a time after the date', () => {
    expect(parsePriceDate('3/7/2024', 'MM/DD/YYYY')).toBe(dayNumber('2024-03-07'));
    expect(parsePriceDate('7.3.2024', 'DD.MM.YYYY')).toBe(dayNumber('2024-03-07'));
    expect(parsePriceDate('2024-3-7', 'YYYY-MM-DD')).toBe(dayNumber('2024-03-07'));
    expect(parsePriceDate('2024-03-07 00:00:00', 'YYYY-MM-DD')).toBe(dayNumber('2024-03-07'));
    expect(parsePriceDate('2024-03-07T16:00:00-05:00', 'YYYY-MM-DD')).toBe(dayNumber('2024-03-07'));
    expect(parsePriceDate('2024037', 'YYYYMMDD')).toBeNaN();
  });

  it('refuses dates that do not exist, other years and stray text', () => {
    for (const text of ['2026-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '1799-12-31', '2200-01-01', '24-03-07', '2024-03-07x', '', '2024-03', 'null', '２０２４-03-07']) {
      expect(parsePriceDate(text, 'YYYY-MM-DD'), text).toBeNaN();
    }
    expect(parsePriceDate('2000-02-29', 'YYYY-MM-DD')).toBe(dayNumber('2000-02-29'));
    expect(parsePriceDate('1900-02-29', 'YYYY-MM-DD')).toBeNaN();
  });

  it('agrees with Date.parse over every day from 1900 to 2100', () => {
    for (let day = dayNumber('1900-01-01'); day <= dayNumber('2100-12-31'); day += 1) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (parsePriceDate(iso, 'YYYY-MM-DD') !== day) throw new Error(iso);
    }
  });
});

describe('parsePriceNumber', () => {
  it('reads what Number reads for plain decimals', () => {
    for (const text of ['0', '12', '12.5', '0.000123', '185.639999', '-3.25', '+4', '.5', '12.', '123456789012.123', '1234567890123456789', '0.1234567890123456789012345']) {
      expect(parsePriceNumber(text, false), text).toBe(Number(text));
    }
  });

  it('reads decimal commas, group marks by three and exponents', () => {
    expect(parsePriceNumber('12,5', true)).toBe(12.5);
    expect(parsePriceNumber('1.234,56', true)).toBe(1234.56);
    expect(parsePriceNumber('1 234,56', true)).toBe(1234.56);
    expect(parsePriceNumber('1,234.56', false)).toBe(1234.56);
    expect(parsePriceNumber("1'234.5", false)).toBe(1234.5);
    expect(parsePriceNumber('1.5e-5', false)).toBe(1.5e-5);
    expect(parsePriceNumber('2E3', false)).toBe(2000);
  });

  it('refuses what is no number', () => {
    for (const text of ['', '-', '+', '.', 'abc', '12a', '0x10', 'Infinity', 'NaN', '1,5', '1,23.4', '12..5', '1.2.3', 'e5', '1e', '1e+', ',5', '1 2', '--1', '12,5,6']) {
      expect(parsePriceNumber(text, false), text).toBeNaN();
    }
    for (const text of ['12.5', '1.23', '12,5,6', '1.2.3']) expect(parsePriceNumber(text, true), text).toBeNaN();
  });

  it('knows the words for a missing value', () => {
    for (const text of ['', 'null', 'NULL', 'NaN', 'n/a', '-']) expect(isMissingValue(text), text).toBe(true);
    for (const text of ['0', 'none?', '12']) expect(isMissingValue(text), text).toBe(false);
  });
});

describe('symbols and headers', () => {
  it('takes the symbol from a file name', () => {
    expect(symbolFromFileName('AAPL.csv')).toBe('AAPL');
    expect(symbolFromFileName('aapl.us.txt')).toBe('AAPL');
    expect(symbolFromFileName('brk-b.us.txt')).toBe('BRK-B');
    expect(symbolFromFileName('^GSPC.csv')).toBe('^GSPC');
    expect(symbolFromFileName('RY.TO.csv')).toBe('RY.TO');
    expect(symbolFromFileName('/home/me/Downloads/MSFT (1).csv')).toBe('MSFT');
    expect(symbolFromFileName('C:\\data\\spy.csv')).toBe('SPY');
    expect(symbolFromFileName('my prices.csv')).toBeNull();
    expect(symbolFromFileName('.csv')).toBeNull();
    expect(normalisePriceSymbol(' nvda ')).toBe('NVDA');
  });

  it('matches header names without regard to case, spaces, underscores and Stooq’s brackets', () => {
    for (const name of ['Adj Close', 'adj_close', 'adjclose', 'ADJ CLOSE', 'Adj. Close', ' adj-close ']) expect(normalisePriceHeader(name)).toBe('adjclose');
    expect(normalisePriceHeader('<VOL>')).toBe('vol');
  });
});
