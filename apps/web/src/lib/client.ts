import type { Endpoint } from '@signalboard/core';
import type { input, output, ZodType } from 'zod';
import { tokenStorage } from '../auth/token-storage';

/** A failed call: `message` is the server's `msg`; `error` is its `error` field when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly error?: string,
  ) {
    super(message);
  }
}

/** What to tell the user of a failed call: the server's `msg` (ApiError), else the error as text. */
export const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : String(error));

let onUnauthorized: () => void = () => undefined;
let onPasswordChangeRequired: () => void = () => undefined;
let onTwoFactorSetupRequired: () => void = () => undefined;

/** The router registers where a 401 on a signed-in call goes (the login screen). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * The router registers where a session that must change its password first goes (Change Password):
 * the server answers such a session's other calls 403 with `code: password_change_required`
 * (docs/accounts.md).
 */
export function setPasswordChangeRequiredHandler(handler: () => void): void {
  onPasswordChangeRequired = handler;
}
export const PASSWORD_CHANGE_REQUIRED_CODE = 'password_change_required';

/**
 * The router registers where a session that must turn two-factor on first goes (/set-two-factor):
 * the installation requires it and the server answers the session's other calls 403 with
 * `code: two_factor_setup_required` (docs/accounts.md "Two-factor sign-in").
 */
export function setTwoFactorSetupRequiredHandler(handler: () => void): void {
  onTwoFactorSetupRequired = handler;
}
export const TWO_FACTOR_SETUP_REQUIRED_CODE = 'two_factor_setup_required';

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  /** A body sent as it is (a file), with its Content-Type. */
  raw?: { body: Blob | string; contentType: string };
  /** Calls made without a token (login, forgot-password, health). */
  anonymous?: boolean;
  query?: Record<string, string>;
  signal?: AbortSignal;
  /** The Accept header; JSON unless said otherwise (e.g. a streamed NDJSON answer). */
  accept?: string;
}

/**
 * Calls start after the page's next frame. A screen's first render asks for all its data at once
 * (the dashboard: ten calls); setting those requests up cost a phone's CPU about 100 ms before the
 * shell and skeletons could paint, and Lighthouse's model counts every request begun before the
 * first paint as something that paint (and the largest one) waited for (issue 24: LCP on
 * /dashboard/main went from 4.0-4.5 s to 3.1-3.6 s). The requests go out a frame later, once the
 * skeletons are drawn. A tab opened in the background (no frames) does not wait; a frame that does
 * not come holds calls back 250 ms at most. Once the page has painted, and where nothing paints
 * (jsdom in the unit tests), calls start at once.
 */
let painted = typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint');
let firstPaint: Promise<void> | undefined;

/** Whether the page has painted content (always, where nothing paints). */
const hasPainted = () => (painted ||= performance.getEntriesByName('first-contentful-paint').length > 0);

function afterFirstPaint(): Promise<void> {
  firstPaint ??= new Promise<void>((resolve) => {
    const fallback = setTimeout(() => done(), 250);
    function done() {
      clearTimeout(fallback);
      painted = true;
      resolve();
    }
    if (document.visibilityState === 'hidden') done();
    // A callback before the next frame; the task after it runs once that frame is drawn.
    else requestAnimationFrame(() => setTimeout(done, 0));
  });
  return firstPaint;
}

/**
 * The one way the web app talks to the server: attaches the token and answers the Response when it
 * is ok; otherwise throws ApiError with the server's `msg` (a 401 on a signed-in call also clears
 * the token and goes to the login screen). Private: calls name their endpoint's declaration
 * (apiCall, apiCallResponse); only the signed-out pages name a path (apiRequestUnchecked).
 */
async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  const token = options.anonymous ? null : tokenStorage.get();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.raw) {
    headers['content-type'] = options.raw.contentType;
    body = options.raw.body;
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  if (!hasPainted()) await afterFirstPaint();
  let response: Response;
  try {
    response = await fetch(`/api/${path}${query}`, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: options.signal,
    });
  } catch (cause) {
    if ((cause as Error).name === 'AbortError') throw cause;
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0);
  }
  if (response.ok) return response;
  const fields = ((await readJson(response)) ?? {}) as { msg?: unknown; error?: unknown; code?: unknown };
  const msg = typeof fields.msg === 'string' ? fields.msg : `The server answered ${response.status}.`;
  const error = typeof fields.error === 'string' ? fields.error : undefined;
  if (response.status === 401 && !options.anonymous) {
    tokenStorage.clear();
    onUnauthorized();
  }
  if (response.status === 403 && fields.code === PASSWORD_CHANGE_REQUIRED_CODE && !options.anonymous) onPasswordChangeRequired();
  if (response.status === 403 && fields.code === TWO_FACTOR_SETUP_REQUIRED_CODE && !options.anonymous) onTwoFactorSetupRequired();
  throw new ApiError(msg, response.status, error);
}

/**
 * An answer the server sent with success that is not in the contract's shape (packages/core/src/contract):
 * the call fails with this, as a refused call fails with ApiError. Deliberately not an ApiError: the
 * server did not refuse anything, and screens tell the two apart (the dashboard's "unexpected error").
 */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
  constructor(
    /** The call's path, without the /api/ prefix. */
    readonly path: string,
    /** Where the answer differs from the schema: `field.sub: what is wrong`, one per problem. */
    readonly problems: readonly string[],
  ) {
    super(`The server's answer to ${path} is not in the expected form (${problems.slice(0, 3).join('; ')}). Reload the page and try again.`);
  }
}

/** The answer checked against its schema: its parsed value, or an UnexpectedAnswerError naming the call. */
export function parseAnswer<S extends ZodType>(schema: S, path: string, answer: unknown): output<S> {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'the answer'}: ${issue.message}`);
  throw new UnexpectedAnswerError(path, problems);
}

/** The schema a declaration gives for `key`, or never when it declares none. */
type Declared<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends ZodType } ? S : never;

/**
 * What a call sends, typed from its declaration (packages/core/src/endpoints): its path parameters,
 * query and body as their schemas take them (z.input); none of them where the declaration has none.
 * A query whose fields are all optional may be left out.
 */
export type CallInput<E extends Endpoint> = ([Declared<E, 'params'>] extends [never] ? { params?: never } : { params: input<Declared<E, 'params'>> }) &
  ([Declared<E, 'query'>] extends [never]
    ? { query?: never }
    : object extends input<Declared<E, 'query'>>
      ? { query?: input<Declared<E, 'query'>> }
      : { query: input<Declared<E, 'query'>> }) &
  ([Declared<E, 'body'>] extends [never] ? { body?: never } : E extends { bodyType: 'csv' } ? { body: Blob | string } : { body: input<Declared<E, 'body'>> }) & {
    signal?: AbortSignal;
  };

/** The input argument: optional when the declaration asks for nothing that must be given. */
type CallArgs<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/** A declaration whose answer is JSON (a streamed, CSV, HTML or XML answer is read with apiCallResponse). */
type JsonEndpoint<E extends Endpoint> = E extends { responseType: string } ? never : E;

const API_PREFIX = '/api/';

/**
 * The declaration's path without the /api/ prefix (the form apiFetch, UnexpectedAnswerError and the
 * tests' mock API name a call by), each `{name}` replaced with its parameter, URI-encoded.
 */
export function endpointPath(endpoint: Endpoint, params?: Record<string, unknown>): string {
  const path = endpoint.path.startsWith(API_PREFIX) ? endpoint.path.slice(API_PREFIX.length) : endpoint.path;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.operationId}: the path parameter ${name} is missing.`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The query as given, each value as text, in the order given; an undefined value is left out (the
 * caller leaves out what it does not send). A query given, even empty, makes the URL end in `?…`, as
 * apiFetch always did.
 */
function queryOf(query: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (query === undefined) return undefined;
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) text[key] = String(value);
  return text;
}

/** A multipart body: each field given (files with their names), in the order given. */
function formOf(fields: Record<string, unknown> | undefined): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === undefined || value === null) continue;
    if (value instanceof File) form.append(key, value, value.name);
    else if (value instanceof Blob) form.append(key, value);
    else form.append(key, String(value));
  }
  return form;
}

/**
 * The request of a call, from its declaration: its method, its path (parameters filled in) and
 * query, its body (JSON by default: the declared body, `{}` for a POST that declares none; a
 * multipart form for `bodyType: 'multipart'`; the file or text as it is, text/csv, for
 * `bodyType: 'csv'`), and no token for an open endpoint.
 */
function requestOf(endpoint: Endpoint, call: { params?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal } = {}, accept?: string): [string, RequestOptions] {
  const options: RequestOptions = { method: endpoint.method.toUpperCase() as RequestOptions['method'], signal: call.signal, anonymous: endpoint.open === true, accept };
  const query = queryOf(call.query as Record<string, unknown> | undefined);
  if (query) options.query = query;
  if (endpoint.method === 'post' || endpoint.method === 'put') {
    if (endpoint.bodyType === 'multipart') options.form = formOf(call.body as Record<string, unknown> | undefined);
    else if (endpoint.bodyType === 'csv') options.raw = { body: call.body as Blob | string, contentType: 'text/csv' };
    else if (endpoint.bodyType === 'form') throw new Error(`${endpoint.operationId}: the web app sends no url-encoded forms.`);
    else options.json = call.body ?? {};
  }
  return [endpointPath(endpoint, call.params as Record<string, unknown> | undefined), options];
}

/**
 * A call through its declaration (packages/core/src/endpoints): the request built from it
 * (requestOf) and the JSON answer parsed with its `response` schema: the answer as the schema gives
 * it, UnexpectedAnswerError when it is not in that shape, ApiError when the server refused.
 */
export async function apiCall<E extends Endpoint>(endpoint: JsonEndpoint<E>, ...[call]: CallArgs<E>): Promise<output<E['response']>> {
  const [path, options] = requestOf(endpoint, call);
  return parseAnswer(endpoint.response as E['response'], path, await readJson(await apiFetch(path, options)));
}

/**
 * The same request, answering the Response itself (ApiError when the server refused): for answers
 * read their own way — a stream (NDJSON), a CSV download, a list whose next page is in a header.
 * `accept`: the Accept header (JSON unless said otherwise).
 */
export async function apiCallResponse<E extends Endpoint>(endpoint: E, call: CallInput<E>, accept?: string): Promise<Response> {
  const [path, options] = requestOf(endpoint, call, accept);
  return apiFetch(path, options);
}

/**
 * A call whose answer is taken as it comes, unchecked: only for the calls of the signed-out pages
 * (/login, /set-password), whose script budget leaves no room for the schema library (parsing there,
 * or only naming their declarations, would move zod into the chunk every signed-out visitor loads:
 * docs/design.md, "Performance budgets"). Every other call goes through apiCall.
 */
export async function apiRequestUnchecked<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await readJson(await apiFetch(path, options))) as T;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
