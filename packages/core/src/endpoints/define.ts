/**
 * One declaration per API call (issue 25 item 2): its method, path, input and answer schemas and what
 * the OpenAPI document says of it. The server registers each with `route()` (apps/server/src/lib/endpoint.ts),
 * which parses the declared input with these schemas; GET /api/docs is built from the registered
 * declarations. Plain data and zod schemas only: nothing here knows the HTTP framework.
 */
import type { ZodType } from 'zod';

/** Error statuses an endpoint can answer, each with a JSON `{ msg }` body (errorBody). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503;

export interface Endpoint {
  /** The call's name for generated clients: lowerCamelCase, unique (e.g. `getFavoriteStocks`). */
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** The full path, `/api/...`, with `{name}` for a path parameter. */
  path: string;
  summary: string;
  /** Needs no bearer token. */
  open?: boolean;
  query?: ZodType;
  /** Path parameters (`{name}` in `path`). */
  params?: ZodType;
  body?: ZodType;
  /** `csv`: the body is a CSV file (text/csv), streamed to the handler; `body` describes it as a string. */
  bodyType?: 'json' | 'form' | 'multipart' | 'csv';
  response: ZodType;
  /**
   * The 200 answer's media type (default application/json); `ndjson`: one `response` a line, streamed;
   * `csv`: text/csv (a download; `response` describes it as a string); `html` a page; `xml` TwiML;
   * `redirect`: a 302 to the `Location` the summary describes (a browser's navigation, not a call).
   */
  responseType?: 'ndjson' | 'csv' | 'html' | 'xml' | 'redirect';
  /**
   * Error statuses beyond those every endpoint of its kind answers: 400 for any input, 401 behind
   * the token, 413 and 415 for a POST body.
   */
  errors?: ErrorStatus[];
  /**
   * The call changes the signed-in account itself (its password, whether it is active): documented
   * as `x-changes-account`, so tools that try calls (the fuzz test) run it last, on an account of its own.
   */
  changesAccount?: true;
  /**
   * A session signed in with a temporary or initial password may make this call (issue 28: only
   * changing the password, reading the e-mail and signing out); every other call answers it 403.
   */
  duringFirstLogin?: true;
  /**
   * A session signed in without two-factor while the installation requires it may make this call
   * (turning two-factor on, reading the e-mail, signing out); every other call answers it 403
   * `code: two_factor_setup_required`.
   */
  duringTwoFactorSetup?: true;
  /** A non-2xx status that answers the `response` schema too (not `{ msg }`), e.g. readiness's 503. */
  alsoAnswers?: { status: 503; description: string };
  /** A stream that stays open until the client leaves (documented as `x-streams-until-closed`; the fuzz test reads its first line). */
  streamsUntilClosed?: true;
}

/** Declares one endpoint; its schemas' types are kept, so the server's handler gets the parsed input typed. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

/**
 * A feature's endpoints, each under its operationId (checked: a key that is not its endpoint's
 * operationId does not compile), so a route names its declaration as `authEndpoints.login`.
 */
export const endpointGroup = <const G extends Record<string, Endpoint>>(group: G & { [K in keyof G]: { operationId: K } }): G => group;

/** Reads market data for one symbol: unknown symbol, provider down with nothing cached, capability not configured. */
export const SYMBOL_DATA: ErrorStatus[] = [404, 502, 503];
/** Reads market data not tied to one symbol. */
export const MARKET_DATA: ErrorStatus[] = [502, 503];
