/**
 * Answers for the errors Fastify and Node's HTTP parser raise before a route runs: they carry a
 * `{ msg }` and the security headers like every other answer (an onRequest hook never runs for them).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Node's maximum size of the request line and headers together (http.maxHeaderSize). */
const MAX_HEADER_KB = 16;

/** What a client error of Node's HTTP parser (or its timeouts) answers. */
export function clientErrorAnswer(code: string | undefined): { status: number; msg: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, msg: `The URL and headers of the request are larger than ${MAX_HEADER_KB} KB; send a shorter URL.` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, msg: 'The request took too long to arrive.' };
    default:
      return { status: 400, msg: 'The request is not valid HTTP.' };
  }
}

/** The raw HTTP/1.1 answer written to the socket: JSON `{ msg }`, the security headers, then close. */
export function rawErrorResponse(status: number, msg: string, securityHeaders: Record<string, string>): string {
  const body = JSON.stringify({ msg });
  const headers: Record<string, string> = {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** What a framework error raised while routing (a URL that cannot be decoded, a path segment too long) answers. */
function frameworkErrorAnswer(error: FastifyError): { status: number; msg: string } {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, msg: 'The URL is not valid: a %-escape in its path does not decode.' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, msg: 'A part of the URL path is too long.' };
    default:
      return { status: error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400, msg: 'The request could not be routed.' };
  }
}

/**
 * Fastify options `clientErrorHandler` (answers Node's parser errors: a URL over the header limit
 * is 431) and `frameworkErrors` (routing errors: a bad %-escape is 400, an overlong path parameter
 * 414), both with `securityHeaders`.
 */
export function edgeErrorHandlers(securityHeaders: Record<string, string>) {
  return {
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
      // A reset connection has nobody left to answer.
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, msg } = clientErrorAnswer(error.code);
      this.log.debug({ err: error, status }, 'client error');
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(rawErrorResponse(status, msg, securityHeaders), () => socket.destroy());
    },
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      const { status, msg } = frameworkErrorAnswer(error);
      request.log.debug({ err: error, status }, 'request could not be routed');
      return reply.headers(securityHeaders).header('cache-control', 'no-store').status(status).send({ msg });
    },
  };
}
