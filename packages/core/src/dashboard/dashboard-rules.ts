import { safeLinkUrl } from '../news/safe-link';
import { splitSentences } from '../news/sentences';

/**
 * The Market Dashboard's display rules (spec §2 "Market Dashboard", §9): summaries split into
 * chunks of 2 sentences, sector news cut to the top 3 with summaries cut at 100 characters, and
 * indicator cards showing the last 2 values. Pure functions shared by the screen and its tests.
 */

/** Spec §9: summaries chunked by 2 sentences. */
export const SUMMARY_CHUNK_SENTENCES = 2;
/** Spec §9: sector news, top 3 shown. */
export const SECTOR_NEWS_TOP = 3;
/** Spec §9: sector news summaries cut at 100 characters. */
export const SECTOR_NEWS_SUMMARY_CHARS = 100;
/** Spec §9: indicator recent values 2. */
export const INDICATOR_RECENT_VALUES = 2;

/** A leading list marker the analyst may write (`- `, `* `, `• `, `1. `, `2) `). */
const LIST_MARKER = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/;

/**
 * Spec §2/§9: an overall or sector summary as bullets of 2 sentences each. Each line of the summary
 * is chunked on its own (a line never runs into the next), list markers are dropped, and blank
 * lines are skipped. An empty summary gives no bullets (the screen then says 'No summary available.').
 */
export function summaryBullets(summary: string | null | undefined, size: number = SUMMARY_CHUNK_SENTENCES): string[] {
  if (!summary) return [];
  const bullets: string[] = [];
  for (const rawLine of summary.split(/\r?\n/)) {
    const line = rawLine.replace(LIST_MARKER, '').trim();
    if (!line) continue;
    const sentences = splitSentences(line);
    for (let index = 0; index < sentences.length; index += size) bullets.push(sentences.slice(index, index + size).join(' '));
  }
  return bullets;
}

/**
 * Spec §2/§9: a sector news summary cut at 100 characters. A longer text keeps its first 100
 * characters (trailing white space dropped) and gains an ellipsis; a shorter one is unchanged.
 */
export function cutSummary(text: string, limit: number = SECTOR_NEWS_SUMMARY_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  return `${trimmed.slice(0, limit).trimEnd()}…`;
}

/** One sector news item of ValueRawJson (spec §3: title, url, image, summary). */
export interface SectorNewsItem {
  title: string;
  /** Only http(s) links; anything else is dropped (provider content is untrusted). */
  url: string | null;
  image: string | null;
  summary: string;
}

export type Parsed<T> = { ok: true; items: T[] } | { ok: false };

/** A ValueRawJson text as its array, or undefined when it is not JSON or not an array. */
function jsonArray(valueRawJson: string | null | undefined): unknown[] | undefined {
  try {
    const raw: unknown = JSON.parse(valueRawJson ?? '');
    return Array.isArray(raw) ? raw : undefined;
  } catch {
    return undefined;
  }
}


const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/**
 * A sector's ValueRawJson as news items. Not JSON, or not an array, is unparseable (the screen says
 * 'Could not load news items for this sector.'). Entries that are not objects, or have neither a
 * title nor a summary, are skipped; an empty array is a sector with no recent news.
 */
export function parseSectorNews(valueRawJson: string | null | undefined): Parsed<SectorNewsItem> {
  const raw = jsonArray(valueRawJson);
  if (!raw) return { ok: false };
  const items: SectorNewsItem[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const record = entry as Record<string, unknown>;
    const title = text(record.title ?? record.headline);
    const summary = text(record.summary);
    if (!title && !summary) continue;
    items.push({ title: title || summary, url: safeLinkUrl(record.url), image: safeLinkUrl(record.image), summary });
  }
  return { ok: true, items };
}

/** The top 3 items shown at once, and the rest behind the expand control. */
export function splitTopNews<T>(items: readonly T[], top: number = SECTOR_NEWS_TOP): { top: T[]; rest: T[] } {
  return { top: items.slice(0, top), rest: items.slice(top) };
}

/** One observation of an indicator's ValueRawJson. */
export interface IndicatorValue {
  date: string;
  value: number;
}

/**
 * An indicator's ValueRawJson (newest first) as its last 2 values. Values may be numbers or numeric
 * text (FRED sends text); entries without a date or a finite value are skipped. Not JSON or not an
 * array is unparseable.
 */
export function recentIndicatorValues(valueRawJson: string | null | undefined, count: number = INDICATOR_RECENT_VALUES): Parsed<IndicatorValue> {
  const raw = jsonArray(valueRawJson);
  if (!raw) return { ok: false };
  const items: IndicatorValue[] = [];
  for (const entry of raw) {
    if (items.length === count) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const date = text(record.date);
    const value = typeof record.value === 'number' ? record.value : typeof record.value === 'string' && record.value.trim() !== '' ? Number(record.value) : Number.NaN;
    if (!date || !Number.isFinite(value)) continue;
    items.push({ date, value });
  }
  return { ok: true, items };
}
