import type { output, ZodType } from 'zod';
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

let onUnauthorized: () => void = () => undefined;

/** The router registers where a 401 on a signed-in call goes (the login screen). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

interface RequestOptions {
  method?: 'GET' | 'POST';
  json?: unknown;
  form?: FormData;
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
 * the token and goes to the login screen).
 */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  const token = options.anonymous ? null : tokenStorage.get();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
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
  const fields = ((await readJson(response)) ?? {}) as { msg?: unknown; error?: unknown };
  const msg = typeof fields.msg === 'string' ? fields.msg : `The server answered ${response.status}.`;
  const error = typeof fields.error === 'string' ? fields.error : undefined;
  if (response.status === 401 && !options.anonymous) {
    tokenStorage.clear();
    onUnauthorized();
  }
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

/**
 * A call whose answer is JSON (or empty), parsed with the contract's response schema: the answer as
 * the schema gives it, or UnexpectedAnswerError when it is not in that shape.
 */
export async function apiRequest<S extends ZodType>(schema: S, path: string, options: RequestOptions = {}): Promise<output<S>> {
  return parseAnswer(schema, path, await readJson(await apiFetch(path, options)));
}

/**
 * A call whose answer is taken as it comes, unchecked: only for the calls of the signed-out pages
 * (/login, /set-password), whose script budget leaves no room for the schema library (parsing there
 * would move zod's parsers into the chunk every signed-out visitor loads: docs/design.md,
 * "Performance budgets"). Every other call goes through apiRequest.
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
