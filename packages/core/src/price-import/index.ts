/**
 * Daily price files (docs/data-in-and-out.md "Daily price files"). The API, as the server uses it:
 *   detectPriceFileFormat(head: string): PriceFileDetection
 *   symbolFromFileName(name: string): string | null          // 'aapl.us.txt' → 'AAPL', '^GSPC.csv' → '^GSPC'
 *   new PriceFileParser(format, { symbol? }) .push(chunk): PriceBar[] .end(): PriceBar[] .problems .hasErrors
 *   new PriceSeriesCollector() .add(bars) .symbols() .series(symbol): PriceSeries
 *   checkPriceSeries(symbol, bars: PriceSeries | readonly PriceBar[], options?): PriceSeriesReport
 *   preparePriceSeries(series, report, splitsToAdjust?): PriceSeries  // sorted, closed days dropped, adjusted
 *   adjustForSplits(series (sorted), splits): PriceSeries
 *   ENGINE_WARMUP_BARS
 */
export * from './types';
