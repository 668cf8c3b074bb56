import { analyzeNewsItems, analyzeNewsText, describeIndicatorChange, renderDashboardSummary, renderLocalAnalysis } from '@signalboard/core';
import type { AnalysisKind, Analyst } from './types';

const SUBJECTS: Record<AnalysisKind, string> = { news: 'market news', trump: 'Trump-related news' };

/** The offline analyst: deterministic, no network (packages/core/src/news/local-analysis.ts, core/src/dashboard/local-summaries.ts). */
export function createLocalAnalyst(options: { maxInputChars: number }): Analyst {
  return {
    kind: 'local',
    analyze: async ({ kind, text }) => renderLocalAnalysis(analyzeNewsText(text, options.maxInputChars), SUBJECTS[kind]),
    summarizeNews: async ({ scope, subject, items }) => renderDashboardSummary(analyzeNewsItems(items), scope === 'market' ? 'Market news' : `${subject} news`),
    explainIndicator: async (brief) => describeIndicatorChange(brief),
  };
}
