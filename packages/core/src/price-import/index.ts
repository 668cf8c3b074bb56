/**
 * Daily price files (docs/data-in-and-out.md "Daily price files"). The API, as the server uses it:
 *   detectPriceFileFormat(head: string): PriceFileDetection
 *   symbolFromFileName(name: string): string | null          // 'aapl.us.txt' → 'AAPL', '^GSPC.csv' → '^GSPC'
 *   new PriceFileParser(format, { symbol? }) .push(chunk): PriceBar[] .end(): PriceBar[] .problems .hasErrors
 *   new PriceSeriesCollector(fallbackSymbol?) .add(bars) .symbols() .series(symbol): PriceSeries
 *   checkPriceSeries(symbol, bars: PriceSeries | readonly PriceBar[], options?: { calendar?: 'us' | 'utc'; today?: 'YYYY-MM-DD'; … }): PriceSeriesReport
 *   preparePriceSeries(series, report, splitsToAdjust?): PriceSeries  // sorted, closed days dropped, adjusted
 *   adjustForSplits(series (sorted), splits): PriceSeries
 *   ENGINE_WARMUP_BARS (260), engineWarmupBars(calendar), SPLIT_THRESHOLD (0.4), PRICE_CALENDAR_FROM ('2000-01-01')
 * Errors (`severity: 'error'`) refuse the file and name a line; warnings are stored and shown.
 */
export * from './types';
export { detectPriceFileFormat, normalisePriceHeader } from './detect';
export { PriceFileParser, OHLC_TOLERANCE, type PriceFileParserOptions } from './price-file-parser';
export { MAX_PROBLEMS_PER_CODE } from './problems';
export { PriceSeriesCollector, toPriceSeries } from './price-series';
export { checkPriceSeries, ENGINE_WARMUP_BARS, engineWarmupBars, PRICE_CALENDAR_FROM, SPLIT_THRESHOLD } from './price-series-check';
export { adjustForSplits, preparePriceSeries } from './price-splits';
export { isMissingValue, normalisePriceSymbol, parsePriceDate, parsePriceNumber, symbolFromFileName } from './price-values';
