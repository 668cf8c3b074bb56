/** What is analysed: market or stock news (api/news-analysis), or the Trump-filtered news (api/analyze-trump-news). */
export type AnalysisKind = 'news' | 'trump';

export interface AnalysisRequest {
  kind: AnalysisKind;
  /** The news as the screens send it (spec §7 notes); non-empty, at most NEWS_ANALYSIS_MAX_CHARS. */
  text: string;
}

/** Writes the analysis the news screens show: plain text, one statement a line. */
export interface Analyst {
  readonly kind: 'local' | 'openai';
  analyze(request: AnalysisRequest): Promise<string>;
}

/** The analyst could not answer (timeout, provider error, empty answer); the calls answer 502 with its message. */
export class AnalystError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'provider' | 'unreachable' | 'empty',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AnalystError';
  }
}
