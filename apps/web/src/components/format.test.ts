import { describe, expect, it } from 'vitest';
import { changeColor, formatMediumDate, formatPercent, formatPrice, formatSignedPercent, formatVolume } from './format';

describe('format', () => {
  it('formats prices to 2 decimals, or the given decimals, with a true minus', () => {
    expect(formatPrice(1234.5)).toBe('1,234.50');
    expect(formatPrice(0.000123456, 8)).toBe('0.00012346');
    expect(formatPrice(-3)).toBe('\u22123.00');
    expect(formatPrice(null)).toBe('N/A');
    expect(formatPrice(Number.NaN)).toBe('N/A');
  });

  it('formats percentages with a sign and 2 decimals', () => {
    expect(formatSignedPercent(1.234)).toBe('+1.23%');
    expect(formatSignedPercent(-0.5)).toBe('\u22120.50%');
    expect(formatSignedPercent(0)).toBe('0.00%');
    expect(formatPercent(12.3456)).toBe('12.35%');
    expect(formatPercent(undefined)).toBe('N/A');
  });

  it('formats volumes compactly', () => {
    expect(formatVolume(1_234_567)).toBe('1.2M');
    expect(formatVolume(950)).toBe('950');
  });

  it('formats the medium date as month, day, year and time', () => {
    expect(formatMediumDate(Date.UTC(2026, 10, 22, 14, 41, 7) / 1000)).toMatch(/^Nov 22, 2026, \d{1,2}:41:07\s[AP]M$/);
  });

  it('writes crypto decimals in full and rounds half away from zero from the shortest decimal, as Intl does', () => {
    expect(formatPrice(1.5, 8)).toBe('1.50000000');
    expect(formatPrice(1.005)).toBe('1.01');
    expect(formatSignedPercent(-0.001)).toBe('0.00%');
  });

  it('colours changes by sign', () => {
    expect([changeColor(1), changeColor(-1), changeColor(0), changeColor(null)]).toEqual(['green', 'red', 'dimmed', 'dimmed']);
  });
});
