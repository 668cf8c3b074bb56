/** The trade-idea calls: each engine's list, crypto's scanner and scorecard, track records, replay status, an idea's detail. */
import { z } from 'zod';
import { cryptoScannerQuery, cryptoScorecardQuery, cryptoScorecardResponse, cryptoTradesResponse, dropItemsResponse, ideaDetail, ideaListQuery, layeredTrade, optionTradesResponse, replayStatusResponse, swingTrade, trackRecord, trackRecordQuery, tradeEngine } from '../contract/index';
import { singleLineText } from '../validation/text';
import { defineEndpoint, endpointGroup } from './define';

export const tradesEndpoints = endpointGroup({
  getLayeredTrades: defineEndpoint({
    operationId: 'getLayeredTrades',
    method: 'get',
    path: '/api/all_stocks_scanner',
    summary:
      'Long-term layered plans, newest first: live ideas of every rule version and replayed ideas of the current one (Origin says which). No parameter: the first 100; filters optional; the next page\'s cursor in the X-Next-Cursor header',
    query: ideaListQuery,
    response: z.array(layeredTrade),
  }),
  getSwingTradeEntries: defineEndpoint({
    operationId: 'getSwingTradeEntries',
    method: 'get',
    path: '/api/get_swing_trade_entries',
    summary: "Short-term (swing) trades, newest first, as all_stocks_scanner (type filters trend, drop, level, each optionally with the one status wanted of it: trend:active,drop:successful); the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: z.array(swingTrade),
  }),
  getCombinedOptionsData: defineEndpoint({
    operationId: 'getCombinedOptionsData',
    method: 'get',
    path: '/api/get_combined_options_data',
    summary:
      "Option trades (OPTION_ALERT underlyings: a ~35-DTE, |Δ| ≈ 0.45 contract, +30 % target, −50 % stop), ProfitPercent descending; status active, successful, failed; no parameter: the first 100; the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: optionTradesResponse,
  }),
  getStockScannerData: defineEndpoint({
    operationId: 'getStockScannerData',
    method: 'get',
    path: '/api/get_stock_scanner_data',
    summary:
      "Drop scanner items (S short-term and L long-term on the Best of S&P 500, O a CALL on the OPTION_ALERT underlyings), newest first; status active, deactivated; type S, L, O, each optionally with the one status wanted of it (S,L:deactivated); the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: dropItemsResponse,
  }),
  getCryptoScanner: defineEndpoint({
    operationId: 'getCryptoScanner',
    method: 'get',
    path: '/api/all_crypto_scanner',
    summary:
      "Crypto Scanner: one row per coin of the source's crypto universe (docs/rules/crypto.md §3), by Symbol: fields on the last completed UTC candle, the three hysteresis signals, news sentiment; IsNew when a signal changed in the last 24 h; Unavailable says why a field shows its default. No parameter: every coin; optional symbol (contains), signal (Buy, Sell, Hold) and horizon (Short, Medium, Long)",
    query: cryptoScannerQuery,
    response: cryptoTradesResponse,
  }),
  getCryptoScorecard: defineEndpoint({
    operationId: 'getCryptoScorecard',
    method: 'get',
    path: '/api/crypto_scorecard',
    summary:
      'The crypto signal scorecard (docs/rules/crypto.md §3.4): per rule version, origin, horizon and label, the 7-, 30- and 90-day forward returns of the label changes dated in [from, to] (UTC days; Sell scored with the sign flipped) with N, mean and its bootstrap interval, median, share positive, the baseline over every day of the window and BTC over the same windows',
    query: cryptoScorecardQuery,
    response: cryptoScorecardResponse,
  }),
  getTrackRecord: defineEndpoint({
    operationId: 'getTrackRecord',
    method: 'get',
    path: '/api/trade_ideas/{engine}/track_record',
    summary: "An engine's track record (per type, origin and rule version: mature cohorts, all closed, open, voided, random-entry baseline, SPY), scoped by CreatedAt and symbol",
    params: z.object({ engine: tradeEngine }),
    query: trackRecordQuery,
    response: trackRecord,
    errors: [404, 502, 503],
  }),
  getReplayStatus: defineEndpoint({ operationId: 'getReplayStatus', method: 'get', path: '/api/trade_ideas/replay_status', summary: "Per engine, the history replay of its current rule version (pending, running with progress, done or failed)", response: replayStatusResponse }),
  getIdeaDetail: defineEndpoint({
    operationId: 'getIdeaDetail',
    method: 'get',
    path: '/api/trade_ideas/{engine}/{id}',
    summary: "An idea's row, its event log (oldest first) and its daily bars from ~60 sessions before the signal to the exit (or today)",
    params: z.object({ engine: tradeEngine, id: singleLineText('id', { max: 200, examples: ['swing.AAPL.2026-03-02@1.0.0'] }) }),
    response: ideaDetail,
    errors: [404, 502, 503],
  }),
});
