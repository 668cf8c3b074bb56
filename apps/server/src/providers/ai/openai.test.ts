import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiAnalyst } from './openai';
import { apiError, completion, startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server';
import { DASHBOARD_SYSTEM_PROMPT, SYSTEM_PROMPT } from './prompts';
import { AnalystError } from './types';

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(async () => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const analyst = (overrides: { timeoutMs?: number; maxInputChars?: number } = {}) =>
  createOpenAiAnalyst({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini', timeoutMs: overrides.timeoutMs ?? 2_000, maxInputChars: overrides.maxInputChars ?? 5_000 });

async function failure(promise: Promise<unknown>): Promise<AnalystError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AnalystError);
  return error as AnalystError;
}

describe('the OpenAI-compatible analyst', () => {
  it('sends the prompts, model and key, and answers the completion text', async () => {
    server.reply = completion('  Overall tone: positive.\n- Apple beats (from "Apple beats")  ');
    const text = await analyst().analyze({ kind: 'trump', text: 'Trump praises Apple: Shares rose' });
    expect(text).toBe('Overall tone: positive.\n- Apple beats (from "Apple beats")');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test', body: { model: 'gpt-4o-mini' } });
    const messages = request!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(messages[1]!.content).toContain('about Donald Trump');
    expect(messages[1]!.content).toContain('Trump praises Apple: Shares rose');
  });

  it('sends at most the input budget, and says it was cut', async () => {
    server.reply = completion('fine');
    const items = Array.from({ length: 400 }, (_, index) => `Headline ${index}: summary ${index}`).join(', ');
    await analyst({ maxInputChars: 1_000 }).analyze({ kind: 'news', text: items });
    const user = (server.requests[0]!.body.messages as Array<{ content: string }>)[1]!.content;
    expect(user).toContain('Headline 0: summary 0');
    expect(user).not.toContain('Headline 399');
    expect(user).toContain('cut to fit the input budget');
    expect(user.length).toBeLessThan(1_300);
  });

  it('turns an error status into a provider AnalystError carrying the provider message', async () => {
    server.reply = apiError(401, 'Incorrect API key provided: sk-test.', 'invalid_api_key');
    const error = await failure(analyst().analyze({ kind: 'news', text: 'A: b' }));
    expect(error.reason).toBe('provider');
    expect(error.message).toBe('The AI provider failed (401): Incorrect API key provided: sk-test.');
    expect(server.requests).toHaveLength(1); // no retries
  });

  it('turns a reply slower than the timeout into a timeout AnalystError, without hanging', async () => {
    server.reply = { ...completion('too late'), delayMs: 3_000 };
    const started = Date.now();
    const error = await failure(analyst({ timeoutMs: 300 }).analyze({ kind: 'news', text: 'A: b' }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe('The AI analysis took longer than 300 ms and was stopped. Please try again.');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses an answer without text, and an unreachable server', async () => {
    server.reply = completion('   ');
    expect((await failure(analyst().analyze({ kind: 'news', text: 'A: b' }))).reason).toBe('empty');
    const nowhere = createOpenAiAnalyst({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2_000, maxInputChars: 5_000 });
    expect((await failure(nowhere.analyze({ kind: 'news', text: 'A: b' }))).reason).toBe('unreachable');
  });

  it('writes the dashboard summaries as prose, with the dashboard prompt', async () => {
    server.reply = completion('Energy reads positive. Oil majors rallied.');
    expect(await analyst().summarizeNews({ scope: 'sector', subject: 'Energy', items: [{ headline: 'Exxon beats', summary: 'Shares rose' }] })).toBe('Energy reads positive. Oil majors rallied.');
    const messages = server.requests[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: 'system', content: DASHBOARD_SYSTEM_PROMPT });
    expect(messages[1]!.content).toContain('sentiment of the Energy sector');
    expect(messages[1]!.content).toContain('Exxon beats: Shares rose');

    await analyst().summarizeNews({ scope: 'market', subject: 'Market', items: [{ headline: 'Fed holds', summary: 'Rates unchanged' }] });
    expect((server.requests[1]!.body.messages as Array<{ content: string }>)[1]!.content).toContain('overall market sentiment');
  });

  it('explains an indicator from its latest values, and fails like the news analysis', async () => {
    server.reply = completion('Inflation picked up.');
    const brief = { name: 'Unemployment Rate', code: 'UNRATE', unit: 'Percent', interval: 'Monthly', values: [{ date: '2026-10-01', value: 4.3 }, { date: '2026-09-01', value: 4.1 }] };
    expect(await analyst().explainIndicator(brief)).toBe('Inflation picked up.');
    const user = (server.requests[0]!.body.messages as Array<{ content: string }>)[1]!.content;
    expect(user).toContain('Unemployment Rate (UNRATE), Monthly, unit: Percent.');
    expect(user).toContain('2026-10-01: 4.3\n2026-09-01: 4.1');
    server.reply = apiError(500, 'The server had an error.');
    expect((await failure(analyst().explainIndicator(brief))).reason).toBe('provider');
  });
});
