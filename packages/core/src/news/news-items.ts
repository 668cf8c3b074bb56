/**
 * Reads the analysis text the news screens send (spec §7 notes): 'headline: summary' items joined
 * with ', ', optionally after 'Stock: {symbol}, News Data: '. Summaries may themselves contain
 * ', ', so a new item starts only where a segment looks like 'Headline: …'.
 */
export interface NewsItem {
  headline: string;
  summary: string;
}

export interface ParsedNews {
  /** The symbol of 'Stock: X, News Data: …', when given. */
  stock?: string;
  items: NewsItem[];
}

const STOCK_PREFIX = /^\s*Stock:\s*([^,]{1,40}?)\s*,\s*News Data:\s*/i;
/** A headline starts like a title (capital, digit, quote or $) and is short. */
const HEADLINE_START = /^["'“‘$0-9A-Z]/;
const MAX_HEADLINE_CHARS = 300;

function headlineOf(segment: string): NewsItem | undefined {
  const colon = segment.indexOf(': ');
  if (colon <= 0 || colon > MAX_HEADLINE_CHARS) return undefined;
  const headline = segment.slice(0, colon).trim();
  if (!HEADLINE_START.test(headline)) return undefined;
  return { headline, summary: segment.slice(colon + 2).trim() };
}

/** The items of an analysis text; text without any 'headline: summary' shape becomes one item per segment. */
export function parseNewsText(text: string): ParsedNews {
  const prefix = STOCK_PREFIX.exec(text);
  const stock = prefix?.[1]?.trim().toUpperCase();
  const body = prefix ? text.slice(prefix[0].length) : text;
  const items: NewsItem[] = [];
  for (const segment of body.split(/,\s+/)) {
    const trimmed = segment.trim();
    if (trimmed === '') continue;
    const item = headlineOf(trimmed);
    const last = items[items.length - 1];
    if (item) items.push(item);
    else if (last) last.summary = last.summary === '' ? trimmed : `${last.summary}, ${trimmed}`;
    else items.push({ headline: trimmed.slice(0, 120), summary: trimmed.length > 120 ? trimmed : '' });
  }
  return stock ? { stock, items } : { items };
}

/** `text` cut to at most `maxChars`, at the last item boundary (', ') or word when there is one. */
export function truncateToBudget(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = text.slice(0, maxChars);
  const item = head.lastIndexOf(', ');
  const boundary = item > maxChars / 2 ? item : head.lastIndexOf(' ');
  return { text: boundary > maxChars / 2 ? head.slice(0, boundary) : head, truncated: true };
}
