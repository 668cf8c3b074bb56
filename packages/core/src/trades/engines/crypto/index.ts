/**
 * The crypto engine `crypto@1.0.0` (docs/rules/crypto.md §3): one row per coin with its fields, news
 * sentiment and three hysteresis signals; the spec §9 number formats; the signal scorecard.
 * See the headers of engine.ts (the pass), fields.ts (every field and its default),
 * state.ts (the events), row.ts (the API row), format.ts (formats) and scorecard.ts (the record).
 */
export { createCryptoEngine, cryptoEngine } from './engine';
export { CRYPTO_PARAMS, CRYPTO_RULE_VERSION, type CryptoParams } from './params';
export { cryptoFieldsAt, trendOf, volumeLabelOf, type CryptoSnapshot, type CryptoTrend, type CryptoUnavailable, type UnavailableCode, type VolumeLabel } from './fields';
export { CRYPTO_HORIZONS, CRYPTO_LABELS, cryptoIndicatorsOf, fractals, hysteresis, labelOf, rawLong, rawMedium, rawShort, type CryptoHorizon, type CryptoIndicators, type CryptoLabel } from './series';
export { cryptoHeadlinesInWindow, cryptoNewsSentiment, cryptoSentimentLabel, NO_CRYPTO_NEWS, type CryptoNewsSentiment, type CryptoSentiment } from './news';
export { applyCryptoEvent, foldCrypto, foldCryptoForward, type CryptoClosedData, type CryptoOpenedData, type CryptoSignalChangedData, type CryptoState } from './state';
export { cryptoDropPercent, cryptoOutcome, foldCryptoRow } from './row';
export {
  CRYPTO_CSV_COLUMNS,
  CRYPTO_DECIMALS,
  CRYPTO_MISSING,
  CRYPTO_NUMBER_FIELDS,
  formatCryptoNumber,
  formatCryptoRow,
  roundCryptoValue,
  type CryptoNumberField,
  type FormattedCryptoRow,
} from './format';
export {
  computeCryptoScorecard,
  CRYPTO_BENCHMARK,
  CRYPTO_SCORECARD_DAYS,
  CRYPTO_SCORECARD_SEED,
  cryptoSignalLog,
  type CryptoCloses,
  type CryptoScorecardInput,
  type CryptoSignalChange,
} from './scorecard';
export { ALWAYS_INCLUDED_CRYPTOS, BASE_ASSETS, cryptoExclusionReason, cryptoUniverse, isCryptoMember, STABLECOINS, WRAPPED_OR_STAKED, type CryptoListing } from './universe';
export type { CryptoExtras, CryptoHeadline } from './extras';
