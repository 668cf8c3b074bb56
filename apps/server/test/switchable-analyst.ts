import { AnalystError, type Analyst } from '../src/providers/ai';
import { createLocalAnalyst } from '../src/providers/ai/local';

/** The local analyst, which fails on demand like a provider outage (`failing = true`). */
export class SwitchableAnalyst implements Analyst {
  readonly kind = 'local';
  private readonly inner = createLocalAnalyst({ maxInputChars: 20_000 });
  constructor(
    public failing = false,
    private readonly failure = new AnalystError('The AI provider could not be reached. Please try again later.', 'unreachable'),
  ) {}
  private check() {
    if (this.failing) throw this.failure;
  }
  analyze: Analyst['analyze'] = async (request) => (this.check(), this.inner.analyze(request));
  summarizeNews: Analyst['summarizeNews'] = async (request) => (this.check(), this.inner.summarizeNews(request));
  explainIndicator: Analyst['explainIndicator'] = async (brief) => (this.check(), this.inner.explainIndicator(brief));
}
