/**
 * The HTTP server's timeouts (buildApp's Fastify options). Node and Fastify wait for ever by default
 * (Fastify sets requestTimeout and connectionTimeout to 0), so a client that trickles its request
 * holds its socket, and an upload its slot, without end.
 * - requestTimeout: the whole request (headers and body) must have arrived within the upload
 *   timeout (UPLOAD_TIMEOUT_SECONDS) and 30 s more, at least 90 s: a backstop for every route, after
 *   which Node itself answers 408 and closes the connection. The uploads answer their own 408 with a
 *   `msg` first (lib/multipart.ts).
 * - connectionTimeout: a socket with no byte either way for 5 minutes is dropped (a live stream
 *   sends a heartbeat every 15 s, features/live/live-hub.ts).
 * - keepAliveTimeout: an idle kept-alive connection stays open 72 s, longer than the 60 s nginx keeps
 *   its idle upstream connections (deploy/nginx.conf), so nginx never reuses one the app is closing.
 */
export const CONNECTION_IDLE_TIMEOUT_MS = 5 * 60_000;
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Above Node's 60 s headersTimeout, which must not exceed requestTimeout. */
const MIN_REQUEST_TIMEOUT_MS = 90_000;

export function httpTimeouts(uploadTimeoutSeconds: number): { requestTimeout: number; connectionTimeout: number; keepAliveTimeout: number } {
  return {
    requestTimeout: Math.max(MIN_REQUEST_TIMEOUT_MS, (uploadTimeoutSeconds + 30) * 1000),
    connectionTimeout: CONNECTION_IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  };
}
