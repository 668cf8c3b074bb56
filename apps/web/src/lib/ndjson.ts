import type { Endpoint } from '@signalboard/core';
import { ApiError, apiCallResponse } from './client';

/**
 * Streamed answers (NDJSON: one JSON value a line, `application/x-ndjson`), read as they arrive with
 * fetch + ReadableStream + TextDecoder. Same conventions as lib/client.ts: the token as a bearer
 * credential, error bodies turned into ApiError with the server's `msg`, and a 401 clearing the
 * token and going to the login screen (lib/client.ts apiCallResponse).
 */

/**
 * Splits text chunks into lines. A line may arrive split across chunks (it waits in the buffer for
 * the rest), several lines may arrive in one chunk; '\r\n' endings and blank lines are tolerated.
 * `flush` answers the last line when the text does not end with a newline.
 */
export function createLineSplitter(): { push(chunk: string): string[]; flush(): string[] } {
  let buffer = '';
  const clean = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
  return {
    push(chunk) {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      return parts.map(clean).filter((line) => line.trim() !== '');
    },
    flush() {
      const rest = clean(buffer);
      buffer = '';
      return rest.trim() === '' ? [] : [rest];
    },
  };
}

const abortError = () => new DOMException('The stream was stopped.', 'AbortError');

/**
 * The lines of a byte stream as they arrive (UTF-8; a character split across chunks is decoded once
 * whole). Aborting `signal` cancels the stream and throws an AbortError; leaving the loop early
 * cancels it too.
 */
export async function* readLines(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = createLineSplitter();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  let finished = false;
  try {
    for (;;) {
      if (signal?.aborted) throw abortError();
      const { done, value } = await reader.read();
      if (signal?.aborted) throw abortError();
      if (done) break;
      yield* splitter.push(decoder.decode(value, { stream: true }));
    }
    yield* splitter.push(decoder.decode());
    yield* splitter.flush();
    finished = true;
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!finished) cancel();
    reader.releaseLock();
  }
}

interface StreamOptions<T> {
  signal?: AbortSignal;
  /** Checks each line's value (e.g. a zod schema's parse); throws on a value of the wrong shape. */
  parse: (value: unknown) => T;
}

/**
 * Calls a streamed endpoint as its declaration says (method, path; a POST without a declared body
 * sends `{}`) and yields each line's JSON value as it arrives.
 */
export async function* streamNdjson<T>(endpoint: Endpoint & { responseType: 'ndjson'; body?: undefined; params?: undefined }, options: StreamOptions<T>): AsyncGenerator<T, void, undefined> {
  const response = await apiCallResponse(endpoint, { signal: options.signal }, 'application/x-ndjson, application/json');
  if (!response.body) throw new ApiError('The server sent an empty answer. Please try again.', response.status);
  for await (const line of readLines(response.body, options.signal)) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ApiError('The server sent an answer that could not be read. Please try again.', response.status);
    }
    yield options.parse(value);
  }
}
