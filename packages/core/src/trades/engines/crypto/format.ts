import type { CryptoTrade } from '../../../contract/crypto-trades';
import { roundTo } from '../../kit/prices';

/**
 * The spec §9 crypto number formats, written once: "price 8 decimals, RSI 2, ATR 4, drop % 2,
 * volume 2, highs 8, swing 4". The fold rounds the row's numbers with them (the API's values), and
 * formatCryptoRow writes them as text with exactly these decimals and the spec's defaults (the
 * screen and the CSV export).
 */
export const CRYPTO_DECIMALS = {
  CurrentPrice: 8,
  RSIValue: 2,
  ATR_14_Day: 4,
  DropPercentage: 2,
  DropPercentage60: 2,
  VolumeLevel: 2,
  OneMonthHigh: 8,
  SixMonthHigh: 8,
  SwingLevel: 4,
  // Added fields: the close like a price, the trend inputs like RSI, the news score 4.
  LastClose: 8,
  ADX: 2,
  PlusDI: 2,
  MinusDI: 2,
  NewsScore: 4,
} as const;

export type CryptoNumberField = keyof typeof CRYPTO_DECIMALS;
export const CRYPTO_NUMBER_FIELDS = Object.keys(CRYPTO_DECIMALS) as CryptoNumberField[];

/** Shown for a number field without a value (spec §2: the 6M high shows 'N/A' when missing). */
export const CRYPTO_MISSING = 'N/A';

/** A field's value rounded to its format (half away from zero); null stays null. */
export function roundCryptoValue(field: CryptoNumberField, value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : roundTo(value, CRYPTO_DECIMALS[field]);
}

/** A field's value as text with exactly its decimals ('0.00001234', '45.60'), or 'N/A'. */
export function formatCryptoNumber(field: CryptoNumberField, value: number | null): string {
  const rounded = roundCryptoValue(field, value);
  if (rounded === null) return CRYPTO_MISSING;
  // -0 after rounding a tiny negative value prints as '0.00', not '-0.00'.
  return (rounded === 0 ? 0 : rounded).toFixed(CRYPTO_DECIMALS[field]);
}

/** The row's numbers as text (formatCryptoNumber); every other field as the row has it. */
export type FormattedCryptoRow = Omit<CryptoTrade, CryptoNumberField> & Record<CryptoNumberField, string>;

/** The row for the screen and the CSV export: numbers as formatted text, defaults where missing. */
export function formatCryptoRow(row: CryptoTrade): FormattedCryptoRow {
  const formatted = {} as Record<CryptoNumberField, string>;
  for (const field of CRYPTO_NUMBER_FIELDS) formatted[field] = formatCryptoNumber(field, row[field]);
  return { ...row, ...formatted };
}

/** The spec §3 "Crypto trade" fields in order: the CSV export's columns. */
export const CRYPTO_CSV_COLUMNS = [
  'Symbol',
  'CurrentPrice',
  'RSIValue',
  'ATR_14_Day',
  'DropPercentage',
  'DropPercentage60',
  'VolumeLevel',
  'OneMonthHigh',
  'SixMonthHigh',
  'SwingLevel',
  'IsSwingLevel',
  'Trend',
  'NewsSentiment',
  'ShortTermSignal',
  'MediumTermSignal',
  'LongTermSignal',
  'News',
  'DateCreated',
  'DateUpdated',
] as const satisfies readonly (keyof CryptoTrade)[];
