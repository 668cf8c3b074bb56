import { z } from 'zod';
import { multiLineText } from '../validation/text';

/** The longest analysis text a call accepts (characters); longer answers 413. */
export const NEWS_ANALYSIS_MAX_CHARS = 200_000;

/** The 413 `msg` for an analysis text longer than NEWS_ANALYSIS_MAX_CHARS. */
export const analysisTooLongMessage = (field: string) =>
  `${field} is too long: at most ${NEWS_ANALYSIS_MAX_CHARS.toLocaleString('en-US')} characters can be analysed at once.`;

const analysisText = (field: string, description: string) =>
  multiLineText(field, { required: true, max: NEWS_ANALYSIS_MAX_CHARS, examples: ['Fed holds rates steady: Markets rally on the decision, Chipmaker beats estimates: Shares jump 8%'] }).describe(`${description} At most ${NEWS_ANALYSIS_MAX_CHARS} characters (longer answers 413).`);

/** POST api/news-analysis (spec §7): general or stock news as text. */
export const newsAnalysisRequest = z.object({
  event_string: analysisText('event_string', "'headline: summary' items joined with ', ', optionally after 'Stock: {symbol}, News Data: '."),
});
export type NewsAnalysisRequest = z.infer<typeof newsAnalysisRequest>;

/** POST api/analyze-trump-news (spec §7): the Trump-filtered news as text. */
export const trumpNewsAnalysisRequest = z.object({
  news_data: analysisText('news_data', "'headline: summary' items joined with ', '."),
});
export type TrumpNewsAnalysisRequest = z.infer<typeof trumpNewsAnalysisRequest>;

/** The analysis: plain text, one statement a line ('\n'). */
export const newsAnalysisResponse = z.object({ response: z.string() });
export type NewsAnalysisResponse = z.infer<typeof newsAnalysisResponse>;
