import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { AnalystError, type AnalysisRequest, type Analyst } from '../../providers/ai';

/** Counts the analyses asked of it (each a paid call with an OpenAI-compatible provider). */
class CountingAnalyst implements Analyst {
  readonly kind = 'local';
  calls: AnalysisRequest[] = [];
  async analyze(request: AnalysisRequest): Promise<string> {
    this.calls.push(request);
    return `analysis ${this.calls.length}`;
  }
  async summarizeNews(): Promise<string> {
    throw new AnalystError('not used here', 'provider');
  }
  async explainIndicator(): Promise<string> {
    throw new AnalystError('not used here', 'provider');
  }
}

let t: TestApp;
let analyst: CountingAnalyst;
beforeAll(async () => {
  analyst = new CountingAnalyst();
  t = await createTestApp({ ANALYSIS_MAX_PER_USER: '3', ANALYSIS_WINDOW_SECONDS: '600', AI_CACHE_TTL_SECONDS: '3600' }, { analyst });
});
afterAll(async () => t.close());

async function signedIn(label: string) {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}
const news = (headers: { authorization: string }, text: string) => t.app.inject({ method: 'POST', url: '/api/news-analysis', headers, payload: { event_string: text } });
const trump = (headers: { authorization: string }, text: string) => t.app.inject({ method: 'POST', url: '/api/analyze-trump-news', headers, payload: { news_data: text } });

describe('news analyses per user', () => {
  it('answers the 4th analysis of 10 minutes (both calls together) 429 with a msg and retry-after, asking the analyst nothing; another user is not affected; after the window it works again', async () => {
    const user = await signedIn('analysis-limit');
    const texts = ['A: one', 'B: two', 'C: three'].map((text) => `${text} ${Date.now()}`);
    expect((await news(user, texts[0]!)).statusCode).toBe(200);
    expect((await trump(user, texts[1]!)).statusCode).toBe(200);
    expect((await news(user, texts[2]!)).statusCode).toBe(200);
    const asked = analyst.calls.length;
    t.clock.advance(4 * 60 * 1000);
    for (const call of [news, trump]) {
      const limited = await call(user, `D: four ${Date.now()}`);
      expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many news analyses (at most 3 every 10 minutes). Please try again in 6 minutes.' }]);
      expect(limited.headers['retry-after']).toBe(String(6 * 60));
    }
    expect(analyst.calls.length).toBe(asked);

    const other = await signedIn('analysis-other');
    expect((await news(other, `E: five ${Date.now()}`)).statusCode).toBe(200);

    t.clock.advance(6 * 60 * 1000);
    expect((await news(user, `F: six ${Date.now()}`)).statusCode).toBe(200);
  });

  it('does not count an answer from the analysis cache: a text analysed before is answered even over the limit', async () => {
    const user = await signedIn('analysis-cached');
    const text = `Cached: item ${Date.now()}`;
    expect((await news(user, text)).statusCode).toBe(200);
    for (let index = 0; index < 5; index += 1) expect((await news(user, text)).statusCode).toBe(200);
    // Another user's analysis of a text is cached for everyone.
    expect((await news(await signedIn('analysis-cached-other'), text)).statusCode).toBe(200);
    expect((await news(user, `Second: item ${Date.now()}`)).statusCode).toBe(200);
    expect((await news(user, `Third: item ${Date.now()}`)).statusCode).toBe(200);
    expect((await news(user, `Fourth: item ${Date.now()}`)).statusCode).toBe(429);
    const cached = await news(user, text);
    expect([cached.statusCode, cached.json()]).toEqual([200, { response: expect.any(String) }]);
  });
});
