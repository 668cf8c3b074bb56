import type { FastifyInstance } from 'fastify';
import { liveEndpoints } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import type { LiveHub } from './live-hub';

/** The same media type as the Options Scanner's stream: not compressed, so each line leaves at once. */
export const LIVE_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

/** GET api/live (the stream) and POST api/live_symbols; both behind the bearer token. */
export async function liveRoutes(app: FastifyInstance, options: { hub: LiveHub }) {
  const { hub } = options;

  route(app, liveEndpoints.openLiveStream, async (request, reply) => {
    // The stream ends with the session (ended, or the token's expiry) or once the account is deactivated.
    const stream = await hub.open(request.user.id, request.sessionId, request.sessionEndsAtMs);
    reply.raw.once('close', () => hub.end(stream.id));
    return reply
      .header('content-type', LIVE_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      // Reverse proxies (nginx) pass the lines on as they come instead of buffering the answer.
      .header('x-accel-buffering', 'no')
      // The connection ends with the stream (a closing app is not held up by a kept-alive socket).
      .header('connection', 'close')
      .send(stream.body);
  });

  route(app, liveEndpoints.setLiveSymbols, async (request, _reply, { connection_id, symbols }) => {
    await hub.setSymbols(request.user.id, connection_id, symbols);
    return { msg: `This stream now shows ${symbols.length} ${symbols.length === 1 ? 'symbol' : 'symbols'}.` };
  });
}
