import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { symbolText } from './watchlist';

/** A stream shows at most this many symbols (the WatchList's favourites and the index strip). */
export const LIVE_SYMBOLS_MAX = 100;

/** POST api/live_symbols: the symbols the screen on this stream shows (replaces the stream's set). */
export const liveSymbolsRequest = z.object({
  connection_id: singleLineText('connection_id', {
    typeError: (input) => (input === undefined ? 'connection_id is required' : 'connection_id must be text'),
    examples: ['0b7c6f0e-2f51-4a8e-9d53-0c1e7f3b9a42'],
  }).regex(/^[0-9a-f-]{36}$/, "connection_id must be the id the stream's hello line gave"),
  symbols: z
    .array(symbolText('Symbol must be text'), { error: (issue) => (issue.input === undefined ? 'symbols is required' : 'symbols must be a list of symbols') })
    .max(LIVE_SYMBOLS_MAX, `symbols may name at most ${LIVE_SYMBOLS_MAX} symbols`),
});
export type LiveSymbolsRequest = z.input<typeof liveSymbolsRequest>;

/**
 * GET api/live: one JSON value a line (application/x-ndjson). First a hello with the stream's id,
 * then a heartbeat every 15 s and the events for this stream: quotes of its symbols, idea updates,
 * the user's fired alerts.
 */
export const liveStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), connection_id: z.string(), heartbeat_ms: z.number() }),
  z.object({ type: z.literal('heartbeat'), at: z.number().describe('epoch ms') }),
  z.object({
    type: z.literal('quote'),
    symbol: z.string(),
    price: z.number(),
    previousClose: z.number(),
    change: z.number(),
    percentChange: z.number(),
    timestamp: z.number().describe('Unix seconds the price was observed'),
  }),
  z.object({ type: z.literal('ideas'), engine: z.string(), at: z.number() }),
  z.object({ type: z.literal('alert'), alertType: z.string(), symbol: z.string().nullable(), message: z.string(), at: z.number() }),
]);
export type LiveStreamEvent = z.infer<typeof liveStreamEvent>;
