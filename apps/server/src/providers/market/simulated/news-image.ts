/**
 * The image of a simulated news article: a small SVG card with a sparkline of the stock's (or, for
 * market news, the S&P 500 ETF's) recent closes, green when they rose over the window and red when
 * they fell, the ticker, a name and the change. Pure: closes in, markup out. Every piece of text is
 * XML-escaped and every number is formatted here, so nothing from the data can inject markup; the
 * card has no scripts, links or external references.
 */

export const NEWS_IMAGE_WIDTH = 320;
export const NEWS_IMAGE_HEIGHT = 180;
/** Closes drawn: about six weeks of sessions. */
export const NEWS_IMAGE_SESSIONS = 30;

const PAD_X = 16;
const CHART_TOP = 64;
const CHART_BOTTOM = NEWS_IMAGE_HEIGHT - 24;
const UP_COLOUR = '#2f9e44';
const DOWN_COLOUR = '#e03131';

export interface NewsImageInput {
  /** Big label: the ticker (`AAPL`, `SPY`). */
  ticker: string;
  /** Small label beside it: the company's name, or what the index is. */
  name: string;
  /** Closes, oldest first; the last is the article's day. */
  closes: readonly number[];
}

export const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);

/** Text cut to `max` characters (with an ellipsis), so long names stay on the card. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The card's SVG markup. */
export function renderNewsImageSvg(input: NewsImageInput): string {
  const closes = input.closes.filter((value) => Number.isFinite(value) && value > 0);
  const first = closes[0] ?? 0;
  const last = closes[closes.length - 1] ?? 0;
  const change = first > 0 ? (last / first - 1) * 100 : 0;
  const colour = change >= 0 ? UP_COLOUR : DOWN_COLOUR;
  const points = sparkline(closes);
  const area = points ? `${PAD_X},${CHART_BOTTOM} ${points} ${NEWS_IMAGE_WIDTH - PAD_X},${CHART_BOTTOM}` : '';
  const changeText = `${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}% over ${closes.length} sessions`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${NEWS_IMAGE_WIDTH}" height="${NEWS_IMAGE_HEIGHT}" viewBox="0 0 ${NEWS_IMAGE_WIDTH} ${NEWS_IMAGE_HEIGHT}" role="img" aria-label="${escapeXml(`${input.ticker} price chart`)}">`,
    `<rect width="${NEWS_IMAGE_WIDTH}" height="${NEWS_IMAGE_HEIGHT}" rx="8" fill="#1a1b1e"/>`,
    `<text x="${PAD_X}" y="32" fill="#f8f9fa" font-family="system-ui,sans-serif" font-size="22" font-weight="700">${escapeXml(clip(input.ticker, 12))}</text>`,
    `<text x="${PAD_X}" y="52" fill="#adb5bd" font-family="system-ui,sans-serif" font-size="12">${escapeXml(clip(input.name, 40))}</text>`,
    `<text x="${NEWS_IMAGE_WIDTH - PAD_X}" y="32" fill="${colour}" font-family="system-ui,sans-serif" font-size="14" font-weight="600" text-anchor="end">${escapeXml(changeText)}</text>`,
    area ? `<polygon points="${area}" fill="${colour}" fill-opacity="0.15"/>` : '',
    points ? `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>` : '',
    `<text x="${NEWS_IMAGE_WIDTH - PAD_X}" y="${NEWS_IMAGE_HEIGHT - 8}" fill="#868e96" font-family="system-ui,sans-serif" font-size="10" text-anchor="end">Simulated market</text>`,
    '</svg>',
  ].join('');
}

/** Polyline points of the closes across the chart area (empty with fewer than two). */
function sparkline(closes: readonly number[]): string {
  if (closes.length < 2) return '';
  const min = Math.min(...closes);
  const max = Math.max(...closes);
  const span = max - min || 1;
  const width = NEWS_IMAGE_WIDTH - 2 * PAD_X;
  return closes
    .map((value, index) => {
      const x = PAD_X + (index / (closes.length - 1)) * width;
      const y = CHART_BOTTOM - ((value - min) / span) * (CHART_BOTTOM - CHART_TOP);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
