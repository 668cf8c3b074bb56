import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createAnalyst } from './index';

describe('createAnalyst', () => {
  it('chooses the analyst AI_PROVIDER names, local by default', async () => {
    const local = createAnalyst(loadConfig({}));
    expect(local.kind).toBe('local');
    expect(await local.analyze({ kind: 'news', text: 'Tesla misses estimates: Shares fell 5%.' })).toMatch(/^Automatic summary of 1 news item \(market news\)\.\nOverall tone: negative/);
    expect(createAnalyst(loadConfig({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).kind).toBe('openai');
  });
});
