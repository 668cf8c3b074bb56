import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { newsAnalysisText, truncateToBudget } from '@signalboard/core';
import { DASHBOARD_SYSTEM_PROMPT, indicatorPrompt, newsSummaryPrompt, SYSTEM_PROMPT, userPrompt } from './prompts';
import { AnalystError, type Analyst } from './types';

export interface OpenAiAnalystOptions {
  /** Unset: the SDK's default (api.openai.com). */
  baseURL?: string;
  /** Servers such as Ollama need none. */
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxInputChars: number;
}

/** A provider failure as an AnalystError whose message the screen can show. */
export function toAnalystError(error: unknown, timeoutMs: number): AnalystError {
  if (error instanceof AnalystError) return error;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
    return new AnalystError(`The AI analysis took longer than ${limit} and was stopped. Please try again.`, 'timeout', { cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new AnalystError('The AI provider could not be reached. Please try again later.', 'unreachable', { cause: error });
  }
  if (error instanceof APIError) {
    const detail = error.error && typeof error.error === 'object' && 'message' in error.error ? String((error.error as { message: unknown }).message) : undefined;
    const status = error.status === undefined ? '' : ` (${error.status})`;
    return new AnalystError(`The AI provider failed${status}: ${(detail ?? 'no details').slice(0, 200)}`, 'provider', { cause: error });
  }
  return new AnalystError('The AI provider failed unexpectedly. Please try again later.', 'provider', { cause: error });
}

/** The analyst behind any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, LM Studio). */
export function createOpenAiAnalyst(options: OpenAiAnalystOptions): Analyst {
  const client = new OpenAI({
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    apiKey: options.apiKey ?? 'none',
    timeout: options.timeoutMs,
    maxRetries: 0,
  });
  /** One chat completion: the system and user messages in, the answer's text out. */
  async function complete(system: string, user: string): Promise<string> {
    let content: string | null | undefined;
    try {
      const completion = await client.chat.completions.create(
        {
          model: options.model,
          temperature: 0.2,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal: AbortSignal.timeout(options.timeoutMs) },
      );
      content = completion.choices?.[0]?.message?.content;
    } catch (error) {
      throw toAnalystError(error, options.timeoutMs);
    }
    if (typeof content !== 'string' || content.trim() === '') throw new AnalystError('The AI provider answered without any text.', 'empty');
    return content.trim();
  }

  return {
    kind: 'openai',
    async analyze({ kind, text }) {
      const budget = truncateToBudget(text, options.maxInputChars);
      return complete(SYSTEM_PROMPT, userPrompt(kind, budget.text, budget.truncated));
    },
    async summarizeNews({ scope, subject, items }) {
      const budget = truncateToBudget(newsAnalysisText(items), options.maxInputChars);
      return complete(DASHBOARD_SYSTEM_PROMPT, newsSummaryPrompt(scope, subject, budget.text, budget.truncated));
    },
    async explainIndicator(brief) {
      return complete(DASHBOARD_SYSTEM_PROMPT, indicatorPrompt({ ...brief, values: brief.values.slice(0, 13) }));
    },
  };
}
