import type { Config } from '../../config';
import { createLocalAnalyst } from './local';
import { createOpenAiAnalyst } from './openai';
import type { Analyst } from './types';

export * from './types';

/** The analyst AI_PROVIDER names: `local` (default, offline) or `openai` (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL). */
export function createAnalyst(config: Config): Analyst {
  if (config.AI_PROVIDER === 'openai') {
    return createOpenAiAnalyst({
      ...(config.OPENAI_BASE_URL ? { baseURL: config.OPENAI_BASE_URL } : {}),
      ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      model: config.OPENAI_MODEL,
      timeoutMs: config.AI_TIMEOUT_MS,
      maxInputChars: config.AI_MAX_INPUT_CHARS,
    });
  }
  return createLocalAnalyst({ maxInputChars: config.AI_MAX_INPUT_CHARS });
}
