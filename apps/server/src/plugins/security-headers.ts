import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * helmet's headers with our CSP: the built app works under it, and news images load from https
 * hosts and from our own origin (the simulated market's images are same-origin paths).
 */
const helmetOptions: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets CSS variables and component styles inline.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // The same rule as frame-ancestors 'none', for browsers that read only the older header.
  xFrameOptions: { action: 'deny' },
  // Self-hosted installs often run on plain http inside a LAN: HSTS only with HSTS_MAX_AGE_SECONDS (below).
  strictTransportSecurity: false,
};

/**
 * Runs helmet once, at start, against a recording response and answers the headers it set. The
 * headers never vary per request, and building them per request (as @fastify/helmet does) cost a
 * quarter of an authenticated request's CPU time in `npm run bench`.
 */
export function computeSecurityHeaders(hstsMaxAgeSeconds = 0): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(helmetOptions)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  // HSTS_MAX_AGE_SECONDS > 0 (an installation served over HTTPS): browsers keep to https for that long.
  if (hstsMaxAgeSeconds > 0) headers['strict-transport-security'] = `max-age=${hstsMaxAgeSeconds}`;
  return headers;
}

export const securityHeaders = fp(async (app: FastifyInstance, options: { hstsMaxAgeSeconds?: number }) => {
  const headers = computeSecurityHeaders(options.hstsMaxAgeSeconds);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});
