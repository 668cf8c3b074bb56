/** The local analyst's answer as text: one statement a line ('\n'), as the news screens show it. */
import type { LocalAnalysis } from './local-analysis';

const signed = (score: number) => (score > 0 ? `+${score.toFixed(2)}` : score.toFixed(2));
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const terms = (words: readonly string[], kind: string) => `${plural(words.length, `${kind} term`)}${words.length > 0 ? ` (${words.slice(0, 5).join(', ')})` : ''}`;

function toneLines(analysis: LocalAnalysis): string[] {
  const { positive, negative, neutral } = analysis.itemTones;
  return [
    `Overall tone: ${analysis.tone}, sentiment score ${signed(analysis.score)} on a scale from -1 to +1.`,
    `Items: ${positive} positive, ${negative} negative, ${neutral} neutral; ${terms(analysis.positiveTerms, 'positive')} and ${terms(analysis.negativeTerms, 'negative')}.`,
  ];
}

/**
 * Renders `analysis`; `subject` names what was analysed (e.g. 'market news', 'Trump-related news').
 * Ends by saying plainly that it is an automatic summary.
 */
export function renderLocalAnalysis(analysis: LocalAnalysis, subject: string): string {
  // A stock's news is about the stock, whichever call asked.
  const about = analysis.stock ? `news about ${analysis.stock}` : subject;
  const lines = [`Automatic summary of ${plural(analysis.itemCount, 'news item')} (${about}).`, ...toneLines(analysis)];
  lines.push(
    analysis.themes.length > 0
      ? `Main themes: ${analysis.themes.map(({ theme, items }) => `${theme} (${plural(items, 'item')})`).join(', ')}.`
      : 'Main themes: none of the tracked themes (earnings, rates, trade, politics, geopolitics, technology…) stands out.',
  );
  lines.push(analysis.tickers.length > 0 ? `Tickers mentioned: ${analysis.tickers.join(', ')}.` : 'Tickers mentioned: none.');
  lines.push('Key points:');
  for (const point of analysis.keyPoints) {
    const quoted = point.text === point.headline ? `- ${point.text} (headline)` : `- ${point.text} (from "${point.headline}")`;
    lines.push(quoted);
  }
  if (analysis.truncated) lines.push('Only the first part of the news fitted in the analysis budget; later items were not read.');
  lines.push('This is an automatic summary written by Signalboard\'s local analyst from the headlines and summaries above (no AI model was used); it is not investment advice.');
  return lines.join('\n');
}
