/**
 * The local analyst's dashboard texts: prose (whole sentences, no lists) so the screen's 2-sentence
 * bullets read well. Market and sector summaries come from the news analysis; an indicator's comes
 * from its latest change and what that change usually means for markets.
 */
import type { LocalAnalysis } from '../news/local-analysis';
import type { IndicatorValue } from './dashboard-rules';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const signed = (score: number) => (score > 0 ? `+${score.toFixed(2)}` : score.toFixed(2));
const stripEnd = (sentence: string) => sentence.replace(/[.!?…\s]+$/, '');
const listOf = (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;

/**
 * A market or sector summary as one paragraph of sentences: tone and score, the split of items, themes and tickers,
 * the strongest points with their headlines, and that it is automatic. `subject` names the news
 * (e.g. 'Market news', 'Energy news').
 */
export function renderDashboardSummary(analysis: LocalAnalysis, subject: string): string {
  if (analysis.itemCount === 0) return `${subject} has no items to summarise right now.`;
  const { positive, negative, neutral } = analysis.itemTones;
  const sentences = [
    `${subject} reads ${analysis.tone} across ${plural(analysis.itemCount, 'item')}, with a sentiment score of ${signed(analysis.score)} on a scale from -1 to +1.`,
    `${positive} read positive, ${negative} negative and ${neutral} neutral.`,
  ];
  if (analysis.themes.length > 0) sentences.push(`The main themes are ${listOf(analysis.themes.map(({ theme, items }) => `${theme} (${plural(items, 'item')})`))}.`);
  if (analysis.tickers.length > 0) sentences.push(`Tickers in the news: ${listOf(analysis.tickers.slice(0, 6))}.`);
  for (const point of analysis.keyPoints.slice(0, 4)) {
    sentences.push(point.text === point.headline ? `"${stripEnd(point.text)}."` : `${stripEnd(point.text)} (from "${stripEnd(point.headline)}").`);
  }
  sentences.push('This automatic summary was written by Signalboard\'s local analyst from the headlines and summaries; it is not investment advice.');
  // One paragraph, as a language model writes it: the screen pairs the sentences into bullets.
  return sentences.join(' ');
}

/** What a rise of each indicator usually means for markets; a fall means the opposite. */
const MEANING_OF_RISE: Record<string, { rise: string; fall: string }> = {
  CPIAUCSL: { rise: 'Prices are rising faster, which makes interest-rate cuts less likely and weighs on bonds and growth stocks.', fall: 'Price pressure is easing, which leaves room for interest-rate cuts and tends to help bonds and growth stocks.' },
  UNRATE: { rise: 'A rising jobless rate points to a cooling labour market: a risk for consumer spending, though it makes rate cuts more likely.', fall: 'A falling jobless rate shows a tight labour market that supports spending but can keep rates higher for longer.' },
  FEDFUNDS: { rise: 'Higher policy rates raise borrowing costs and tend to pressure stock valuations.', fall: 'Lower policy rates ease borrowing costs and tend to support stock valuations.' },
  DGS10: { rise: 'Higher long-term yields raise discount rates and mortgage costs, a headwind for rate-sensitive and growth stocks.', fall: 'Lower long-term yields ease financing costs, a tailwind for rate-sensitive and growth stocks.' },
  A191RL1Q225SBEA: { rise: 'Faster growth supports corporate earnings.', fall: 'Slower growth is a warning for corporate earnings.' },
  ISM_PMI: { rise: 'Manufacturing activity is improving (above 50 means expansion).', fall: 'Manufacturing activity is weakening (below 50 means contraction).' },
  PAYEMS_CHG: { rise: 'Stronger hiring supports incomes and spending.', fall: 'Weaker hiring points to a slowing economy.' },
  UMCSENT: { rise: 'Households are more confident, which supports spending.', fall: 'Households are less confident, a risk for spending.' },
};

/** Series that are price levels: their moves read in percent, and yearly (inflation). */
const PRICE_LEVELS = new Set(['CPIAUCSL']);

/**
 * How big a move is, in the series' own terms: percentage points for a rate, percent for a price
 * level, points for an index (PMI, sentiment), the unit for a count ("51 thousand" payrolls).
 */
function changeSize(brief: IndicatorBrief, delta: number, previous: number): string {
  const amount = Math.abs(delta);
  if (brief.unit === 'Percent') return `${amount.toFixed(2)} percentage points`;
  if (PRICE_LEVELS.has(brief.code) && previous !== 0) return `${Math.abs((delta / previous) * 100).toFixed(2)}%`;
  const number = amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (/^index/i.test(brief.unit)) return `${number} ${amount === 1 ? 'point' : 'points'}`;
  if (/^thousands\b/i.test(brief.unit)) return `${number} thousand`;
  return `${number} ${brief.unit.toLowerCase()}`;
}

/** An indicator as the analyst reads it: its name, code, unit and newest-first values. */
export interface IndicatorBrief {
  name: string;
  code: string;
  unit: string;
  interval: string;
  /** Newest first. */
  values: IndicatorValue[];
}

const signedPercent = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}%`;

const formatValue = (value: number, unit: string) => {
  const number = value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 1000 ? 0 : 2, minimumFractionDigits: 0 });
  return unit === 'Percent' ? `${number}%` : number;
};

/** The period an observation stands for, e.g. 'October 2026' (monthly), 'Q3 2026' (quarterly) or 'Nov 20, 2026'. */
export function periodLabel(date: string, interval: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month) return date;
  const at = new Date(Date.UTC(year, month - 1, day || 1));
  if (interval === 'Quarterly') return `Q${Math.floor((month - 1) / 3) + 1} ${year}`;
  // Written out rather than asked of Intl: the dashboard shows these labels in the browser, where the
  // page's first Intl date format is a long task on a phone's CPU (issue 24).
  const monthName = MONTH_NAMES[at.getUTCMonth()]!;
  if (interval === 'Monthly') return `${monthName} ${at.getUTCFullYear()}`;
  return `${monthName.slice(0, 3)} ${at.getUTCDate()}, ${at.getUTCFullYear()}`;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/**
 * What the latest change of an indicator means, in sentences: the latest value and period, the
 * change from the one before (in points for percentages, in percent for index levels), and what
 * such a move usually means for markets.
 */
export function describeIndicatorChange(brief: IndicatorBrief): string {
  const [latest, previous] = brief.values;
  if (!latest) return `No ${brief.name} figures have been published yet.`;
  const first = `${brief.name} was ${formatValue(latest.value, brief.unit)} for ${periodLabel(latest.date, brief.interval)}.`;
  if (!previous) return `${first} There is no earlier figure to compare with.`;
  const delta = latest.value - previous.value;
  const size = changeSize(brief, delta, previous.value);
  const before = `${formatValue(previous.value, brief.unit)} for ${periodLabel(previous.date, brief.interval)}`;
  const meaning = MEANING_OF_RISE[brief.code];
  if (Math.abs(delta) < 1e-9) return `${first} It was unchanged from ${before}.${meaning ? ' A flat reading gives markets no new signal from this indicator.' : ''}`;
  const direction = delta > 0 ? 'up' : 'down';
  const lines = [first, `That is ${direction} ${size} from ${before}.`];
  // A price level (CPI) means most as a yearly rate: the value 12 months before, when given.
  const yearAgo = PRICE_LEVELS.has(brief.code) && brief.interval === 'Monthly' ? brief.values[12] : undefined;
  if (yearAgo && yearAgo.value !== 0) lines.push(`Over 12 months it changed ${signedPercent(((latest.value - yearAgo.value) / yearAgo.value) * 100)}.`);
  if (meaning) lines.push(delta > 0 ? meaning.rise : meaning.fall);
  return lines.join(' ');
}
