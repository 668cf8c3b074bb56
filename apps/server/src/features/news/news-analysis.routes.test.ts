import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWS_ANALYSIS_MAX_CHARS } from '@signalboard/core';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { AnalystError, type AnalysisRequest, type Analyst } from '../../providers/ai';

/** An analyst that records its calls; `fail` makes the next calls throw. */
class FakeAnalyst implements Analyst {
  readonly kind = 'local';
  calls: AnalysisRequest[] = [];
  fail: AnalystError | undefined;
  delayMs = 0;
  async analyze(request: AnalysisRequest): Promise<string> {
    this.calls.push(request);
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.fail) throw this.fail;
    return `analysis ${this.calls.length} of ${request.kind}: ${request.text.slice(0, 20)}`;
  }
  // The dashboard's texts are not under test here.
  async summarizeNews(): Promise<string> {
    throw new AnalystError('not used by the news calls', 'provider');
  }
  async explainIndicator(): Promise<string> {
    throw new AnalystError('not used by the news calls', 'provider');
  }
}

const CALLS = [
  { url: '/api/news-analysis', field: 'event_string', kind: 'news' },
  { url: '/api/analyze-trump-news', field: 'news_data', kind: 'trump' },
] as const;

let t: TestApp;
let analyst: FakeAnalyst;
let headers: { authorization: string };

beforeAll(async () => {
  analyst = new FakeAnalyst();
  t = await createTestApp({}, { analyst });
  const email = uniqueEmail('news-analysis');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, withToken = true) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: withToken ? headers : {} });

describe.each(CALLS)('POST $url', ({ url, field, kind }) => {
  it('answers { response } from the analyst, told which call it is', async () => {
    const text = `Apple beats (${kind}): Shares rose, Fed holds: Rates unchanged`;
    const response = await post(url, { [field]: text });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ response: expect.stringContaining(`of ${kind}: Apple beats`) });
    expect(analyst.calls.at(-1)).toEqual({ kind, text });
  });

  it('refuses a missing, empty, blank or non-text field with 400 and a msg', async () => {
    const before = analyst.calls.length;
    for (const body of [{}, { [field]: '' }, { [field]: '  \n ' }, { [field]: null }]) {
      const response = await post(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ msg: `${field} is required` });
    }
    for (const body of [{ [field]: 42 }, { [field]: ['a'] }]) {
      const response = await post(url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ msg: `${field} must be text` });
    }
    expect((await post(url, ['not', 'an', 'object'])).statusCode).toBe(400);
    expect(analyst.calls.length).toBe(before);
  });

  it('refuses text over the documented limit with 413 and a msg', async () => {
    const response = await post(url, { [field]: 'x'.repeat(NEWS_ANALYSIS_MAX_CHARS + 1) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ msg: `${field} is too long: at most 200,000 characters can be analysed at once.` });
    expect((await post(url, { [field]: `A: ${'y'.repeat(NEWS_ANALYSIS_MAX_CHARS - 3)}` })).statusCode).toBe(200);
  });

  it('needs the token', async () => {
    const response = await post(url, { [field]: 'A: b' }, false);
    expect(response.statusCode).toBe(401);
  });
});

describe('the analysis cache', () => {
  it('analyses the same text of the same call once, also for a double click, and per call otherwise', async () => {
    const text = `Cache test ${Date.now()}: one item`;
    analyst.delayMs = 50;
    const before = analyst.calls.length;
    const [first, second] = await Promise.all([post('/api/news-analysis', { event_string: text }), post('/api/news-analysis', { event_string: text })]);
    analyst.delayMs = 0;
    const third = await post('/api/news-analysis', { event_string: text });
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([200, 200, 200]);
    expect(second.json()).toEqual(first.json());
    expect(third.json()).toEqual(first.json());
    expect(analyst.calls.length - before).toBe(1);
    await post('/api/analyze-trump-news', { news_data: text });
    expect(analyst.calls.length - before).toBe(2);
  });

  it('analyses again after ten minutes', async () => {
    const text = `Expiry test ${Date.now()}: one item`;
    const before = analyst.calls.length;
    await post('/api/news-analysis', { event_string: text });
    t.clock.advance(10 * 60 * 1000);
    await post('/api/news-analysis', { event_string: text });
    expect(analyst.calls.length - before).toBe(2);
  });
});

describe('analyst failures', () => {
  it('answer 502 with the msg, and are not cached', async () => {
    const text = `Failure test ${Date.now()}: one item`;
    analyst.fail = new AnalystError('The AI provider could not be reached. Please try again later.', 'unreachable');
    const response = await post('/api/analyze-trump-news', { news_data: text });
    analyst.fail = undefined;
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ msg: 'The AI provider could not be reached. Please try again later.' });
    expect((await post('/api/analyze-trump-news', { news_data: text })).statusCode).toBe(200);
  });
});
