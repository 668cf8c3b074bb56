import type { IndicatorBrief } from '@signalboard/core';

/** What is analysed: market or stock news (api/news-analysis), or the Trump-filtered news (api/analyze-trump-news). */
export type AnalysisKind = 'news' | 'trump';

export interface AnalysisRequest {
  kind: AnalysisKind;
  /** The news as the screens send it (spec §7 notes); non-empty, at most NEWS_ANALYSIS_MAX_CHARS. */
  text: string;
}

/** What the dashboard jobs summarise: the market's latest news, or one GICS sector's company news. */
export interface NewsSummaryRequest {
  scope: 'market' | 'sector';
  /** 'Market' or the sector's name, e.g. 'Energy'. */
  subject: string;
  /** The news items, newest first. */
  items: ReadonlyArray<{ headline: string; summary: string }>;
}

export type { IndicatorBrief };

export interface Analyst {
  readonly kind: 'local' | 'openai';
  /** The analysis the news screens show: plain text, one statement a line. */
  analyze(request: AnalysisRequest): Promise<string>;
  /**
   * The dashboard's market or sector summary: plain prose, whole sentences (the screen shows it as
   * bullets of 2 sentences each), one paragraph a line.
   */
  summarizeNews(request: NewsSummaryRequest): Promise<string>;
  /** What an economic indicator's latest change means, in a few plain sentences. */
  explainIndicator(brief: IndicatorBrief): Promise<string>;
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
