import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { optionScanRequest, optionSignalsEndpoints, type OptionScanEvent } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { parseInput } from '../../lib/errors';
import type { OptionSignalsService } from './option-signals.service';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

/** One JSON event a line, each handed to the socket as soon as it is ready. */
async function* ndjson(events: AsyncIterable<OptionScanEvent>): AsyncGenerator<string, void, undefined> {
  for await (const event of events) yield `${JSON.stringify(event)}\n`;
}

/** Option Signals over the favourites (packages/core/src/contract/scans.ts). Behind the token; the signed-in user's favourites. */
export async function optionSignalsRoutes(app: FastifyInstance, options: { optionSignals: OptionSignalsService }) {
  const { optionSignals } = options;

  // Documented without a body (it takes none); an object with unknown fields is still refused.
  route(app, optionSignalsEndpoints.scanOptions, async (request, reply) => {
    parseInput(optionScanRequest, request.body);
    // Read before the first byte goes out, so a failure here is still an ordinary JSON error.
    const symbols = await optionSignals.favoriteSymbols(request.user.id);
    const clientGone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) clientGone.abort();
    });
    const body = Readable.from(ndjson(optionSignals.optionScan(symbols, clientGone.signal)));
    return reply
      .header('content-type', NDJSON_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      // Reverse proxies (nginx) pass the lines on as they come instead of buffering the answer.
      .header('x-accel-buffering', 'no')
      .send(body);
  });
}
