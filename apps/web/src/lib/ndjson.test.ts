import { optionSignalsEndpoints } from '@signalboard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './client';
import { createLineSplitter, readLines, streamNdjson } from './ndjson';

const encoder = new TextEncoder();

/** A byte stream that hands out exactly these chunks, in order. */
function streamOf(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index === chunks.length) return controller.close();
      const chunk = chunks[index++]!;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(body, signal)) lines.push(line);
  return lines;
}

describe('line splitter', () => {
  it('keeps a line split mid-way until its end arrives', () => {
    const splitter = createLineSplitter();
    expect(splitter.push('{"type":"st')).toEqual([]);
    expect(splitter.push('art","total":2}\n{"type"')).toEqual(['{"type":"start","total":2}']);
    expect(splitter.push(':"end"}\n')).toEqual(['{"type":"end"}']);
    expect(splitter.flush()).toEqual([]);
  });

  it('answers several lines of one chunk in order, skipping blank lines and \\r', () => {
    const splitter = createLineSplitter();
    expect(splitter.push('a\nb\r\n\nc\n')).toEqual(['a', 'b', 'c']);
  });

  it('answers a trailing line without a newline on flush', () => {
    const splitter = createLineSplitter();
    expect(splitter.push('a\nlast')).toEqual(['a']);
    expect(splitter.flush()).toEqual(['last']);
    expect(splitter.flush()).toEqual([]);
  });
});

describe('readLines', () => {
  it('reads lines across chunk boundaries, several per chunk, and a trailing line', async () => {
    const lines = await collect(streamOf(['{"n":1}\n{"n"', ':2}\n', '{"n":3}\n{"n":4}\n{"n":', '5}']));
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
  });

  it('decodes a character whose UTF-8 bytes are split across chunks', async () => {
    const bytes = encoder.encode('{"msg":"−5.17 %"}\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of '−'
    expect(await collect(streamOf([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(['{"msg":"−5.17 %"}']);
  });

  it('answers nothing for an empty stream', async () => {
    expect(await collect(streamOf([]))).toEqual([]);
  });

  it('stops with an AbortError and cancels the stream when the signal aborts', async () => {
    const cancelled = vi.fn();
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode('first\n'));
      },
      cancel: cancelled,
    });
    const lines: string[] = [];
    await expect(
      (async () => {
        for await (const line of readLines(body, controller.signal)) {
          lines.push(line);
          controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(lines).toEqual(['first']);
    expect(cancelled).toHaveBeenCalled();
  });
});

describe('streamNdjson', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  it('posts with the bearer token and yields each parsed line', async () => {
    window.localStorage.setItem('access_token', 'token-1');
    const fetchMock = vi.fn(async () => new Response(streamOf(['{"a":1}\n{"a"', ':2}\n']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const values: unknown[] = [];
    for await (const value of streamNdjson(optionSignalsEndpoints.scanOptions, { parse: (raw) => raw })) values.push(value);
    expect(values).toEqual([{ a: 1 }, { a: 2 }]);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/scan/options',
      expect.objectContaining({ method: 'POST', body: '{}', headers: expect.objectContaining({ authorization: 'Bearer token-1' }) }),
    );
  });

  it("turns an error answer into ApiError with the server's msg, and a 401 clears the token", async () => {
    window.localStorage.setItem('access_token', 'expired');
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ msg: 'Token expired' }), { status: 401 }));
    const run = async () => {
      for await (const value of streamNdjson(optionSignalsEndpoints.scanOptions, { parse: (raw) => raw })) void value;
    };
    const error = await run().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Token expired', status: 401 });
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('rejects a line that is not JSON', async () => {
    vi.stubGlobal('fetch', async () => new Response(streamOf(['{"a":1}\nnot json\n']), { status: 200 }));
    const seen: unknown[] = [];
    const run = async () => {
      for await (const value of streamNdjson(optionSignalsEndpoints.scanOptions, { parse: (raw) => raw })) seen.push(value);
    };
    await expect(run()).rejects.toThrow('The server sent an answer that could not be read. Please try again.');
    expect(seen).toEqual([{ a: 1 }]);
  });
});
