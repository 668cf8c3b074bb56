import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * helmet's headers with our CSP: the built app works under it, and images load from our own origin
 * (the app's, the simulated market's news images: same-origin paths) and from the https origins in
 * NEWS_IMAGE_ORIGINS only (`computeSecurityHeaders` adds them); the API leaves out news images from
 * any other host (lib/news-images.ts).
 */
const helmetOptions: NonNullable<Parameters<typeof helmet>[0]> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets CSS variables and component styles inline.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      // The app's own service worker (/sw.js, browser push) and its web app manifest (issue 27).
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
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

export interface SecurityHeaderOptions {
  /** HSTS_MAX_AGE_SECONDS: 0 sends no Strict-Transport-Security. */
  hstsMaxAgeSeconds?: number;
  /** NEWS_IMAGE_ORIGINS: the https origins img-src allows beside our own. */
  imageOrigins?: readonly string[];
}

/**
 * Runs helmet once, at start, against a recording response and answers the headers it set. The
 * headers never vary per request, and building them per request (as @fastify/helmet does) cost a
 * quarter of an authenticated request's CPU time in `npm run bench`. app.ts sets them on every
 * answer (with the request id, in one onRequest hook) and on the errors before any route.
 */
export function computeSecurityHeaders(options: SecurityHeaderOptions = {}): Record<string, string> {
  const { hstsMaxAgeSeconds = 0, imageOrigins = [] } = options;
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
  const csp = helmetOptions.contentSecurityPolicy as { useDefaults: boolean; directives: Record<string, string[]> };
  const withImages = { ...helmetOptions, contentSecurityPolicy: { ...csp, directives: { ...csp.directives, imgSrc: [...csp.directives.imgSrc!, ...imageOrigins] } } };
  helmet(withImages)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  // HSTS_MAX_AGE_SECONDS > 0 (an installation served over HTTPS): browsers keep to https for that long.
  if (hstsMaxAgeSeconds > 0) headers['strict-transport-security'] = `max-age=${hstsMaxAgeSeconds}`;
  return headers;
}

/**
 * The headers of the API's answers (`/api/…`: JSON, CSV, NDJSON, never a page the app runs in), as
 * the OWASP REST Security Cheat Sheet gives them: nothing in the answer may load or run anything
 * (`default-src 'none'`), it is never framed, never sniffed as another type, never read by another
 * origin's page, and never cached. The document headers above (the SPA's CSP, COOP, Origin-Agent-
 * Cluster, X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies,
 * X-XSS-Protection) only act on a page a browser renders; they more than doubled every API answer's
 * header bytes, each checked by Node as it is written. An API route that answers a page sets that
 * page's own CSP (the unsubscribe pages, features/alerts/delivery).
 */
export function computeApiHeaders(options: Pick<SecurityHeaderOptions, 'hstsMaxAgeSeconds'> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  };
  if ((options.hstsMaxAgeSeconds ?? 0) > 0) headers['strict-transport-security'] = `max-age=${options.hstsMaxAgeSeconds}`;
  return headers;
}
