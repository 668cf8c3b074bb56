/**
 * The one way the server POSTs to a user's URL (alert channels): to the address checkOutboundUrl
 * pinned, never to a fresh DNS answer, with no redirect followed and no proxy, a deadline on the
 * whole exchange and at most 4 KB of the answer kept.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { CheckedUrl } from './url-guard';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The first 4 KB of the answer as UTF-8 text; the rest is read and discarded. */
  body: string;
  durationMs: number;
}

/** The request did not get an answer: refused, reset, TLS, timeout. The message is short and says which. */
export class OutboundNetworkError extends Error {}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const MAX_BODY_BYTES = 4_096;
const USER_AGENT = 'Signalboard-Webhooks/1.0';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
};

/** A sentence for the user and the log: 'connection refused (ECONNREFUSED)', 'TLS: certificate has expired (CERT_HAS_EXPIRED)'. */
function networkError(error: unknown): OutboundNetworkError {
  if (error instanceof OutboundNetworkError) return error;
  const { code, message, reason } = error as NodeJS.ErrnoException & { reason?: string };
  const known = code ? NETWORK_CODES[code] : undefined;
  if (code && known) return new OutboundNetworkError(`${known} (${code})`, { cause: error });
  if (code && (/CERT|TLS|SSL|SIGNATURE/.test(code) || /certificate|ssl|tls/i.test(message))) {
    // OpenSSL's reason ('wrong version number'), not its long message with source file and line.
    const openssl = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
    return new OutboundNetworkError(`TLS: ${reason ?? openssl ?? message} (${code})`, { cause: error });
  }
  return new OutboundNetworkError(code ? `${message} (${code})` : message, { cause: error });
}

/** Answers the pinned address whatever name is asked: the Host header and SNI keep the URL's name. */
function pinnedLookup(target: CheckedUrl): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The caller's headers with lower-case names; Host and Content-Length are the request's own. */
function requestHeaders(given: Record<string, string>, body: string | Buffer): Record<string, string | number> {
  const headers: Record<string, string | number> = { 'user-agent': USER_AGENT };
  for (const [name, value] of Object.entries(given)) {
    const key = name.toLowerCase();
    if (key !== 'host' && key !== 'content-length') headers[key] = value;
  }
  headers['content-length'] = Buffer.byteLength(body);
  return headers;
}

/**
 * POSTs `body` to a checked URL, connecting to its pinned address (a second DNS answer cannot move
 * the request: DNS rebinding) while the Host header and TLS SNI name the URL's host. A string body
 * is sent as UTF-8, a Buffer as its bytes (an encrypted Web Push message). A 3xx is an answer like
 * any other (a redirect could lead anywhere). Any failure to get an answer within `timeoutMs`
 * (default 5 s, reading the answer included) is an OutboundNetworkError.
 */
export function postPinned(
  target: CheckedUrl,
  body: string | Buffer,
  headers: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<OutboundResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { url } = target;
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      hostname,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: requestHeaders(headers, body),
      agent: false,
      lookup: pinnedLookup(target),
      // SNI is a name, never an address (RFC 6066); for a literal IP the certificate is checked against the IP.
      ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
    });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: unknown) =>
      finish(() => {
        request.destroy();
        reject(networkError(error));
      });
    const timer = setTimeout(() => fail(new OutboundNetworkError(`timed out after ${timeoutMs / 1_000} s`)), timeoutMs);
    request.on('error', fail);
    request.on('response', (response) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (keptBytes >= MAX_BODY_BYTES) return;
        const part = chunk.subarray(0, MAX_BODY_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      });
      response.on('end', () =>
        finish(() =>
          resolve({
            status: response.statusCode ?? 0,
            headers: flatHeaders(response),
            body: Buffer.concat(kept).toString('utf8'),
            durationMs: Math.round(performance.now() - started),
          }),
        ),
      );
      response.on('error', fail);
      response.on('close', () => {
        if (!response.complete) fail(new OutboundNetworkError('connection closed before the answer ended'));
      });
    });
    request.end(body);
  });
}
