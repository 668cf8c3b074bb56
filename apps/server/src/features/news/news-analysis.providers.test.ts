import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { apiError, completion, startOpenAiTestServer, type OpenAiTestServer } from '../../providers/ai/openai-test-server';

const NEWS = [
  'Apple beats estimates as iPhone sales surge: Apple (AAPL) reported record quarterly revenue, up 8%.',
  'Trump threatens new tariffs on China: The president warned of 60% tariffs, raising fears of a trade war.',
  'Fed signals a rate cut: Powell said inflation is easing.',
].join(', ');

describe('the local analyst through the API (the default)', () => {
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    headers = await userWithFavorites(t, 'analyst', []);
  });
  afterAll(async () => t.close());

  it('answers a sourced, line-by-line automatic summary for a stock', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/news-analysis', headers, payload: { event_string: `Stock: AAPL, News Data: ${NEWS}` } });
    expect(response.statusCode).toBe(200);
    const lines = response.json<{ response: string }>().response.split('\n');
    expect(lines[0]).toBe('Automatic summary of 3 news items (news about AAPL).');
    expect(lines[1]).toMatch(/^Overall tone: /);
    expect(lines).toContain('Tickers mentioned: AAPL.');
    expect(lines.filter((line) => line.startsWith('- ')).some((line) => line.includes('(from "Trump threatens new tariffs on China")'))).toBe(true);
  });
});

describe('the openai analyst through the API, against a loopback server', () => {
  let t: TestApp;
  let headers: { authorization: string };
  let server: OpenAiTestServer;
  beforeAll(async () => {
    server = await startOpenAiTestServer();
    t = await createTestApp({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-loopback', OPENAI_MODEL: 'llama3.2', AI_TIMEOUT_MS: '400' });
    headers = await userWithFavorites(t, 'analyst', []);
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });
  const analyse = (news_data: string) => t.app.inject({ method: 'POST', url: '/api/analyze-trump-news', headers, payload: { news_data } });

  it('answers the model text', async () => {
    server.reply = completion('Overall tone: negative.\n- Tariffs (from "Trump threatens new tariffs on China")');
    const response = await analyse(NEWS);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ response: 'Overall tone: negative.\n- Tariffs (from "Trump threatens new tariffs on China")' });
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'llama3.2' });
  });

  it('answers 502 with a msg when the provider fails', async () => {
    server.reply = apiError(500, 'The server had an error while processing your request.', 'server_error');
    const response = await analyse(`${NEWS} (error case)`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ msg: 'The AI provider failed (500): The server had an error while processing your request.' });
  });

  it('answers 502 with a msg when the provider is slower than AI_TIMEOUT_MS', async () => {
    server.reply = { ...completion('too late'), delayMs: 3_000 };
    const started = Date.now();
    const response = await analyse(`${NEWS} (slow case)`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ msg: 'The AI analysis took longer than 400 ms and was stopped. Please try again.' });
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
