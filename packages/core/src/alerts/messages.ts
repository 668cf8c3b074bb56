/**
 * The messages of the event-driven alert types (docs/rules/alerts.md §2 "The eleven types"): a new
 * option trade, a daily pass of new drop items, a pass of swing-trade progress, a saved idea's event,
 * a crypto signal's label change, a news batch and a saved scan's new matches. Pure: the server
 * passes plain data. Every message names the price, the source and the as-of time where the input
 * has them; each SMS is ≤ 160 characters (cut with "…", the source and time kept whole).
 */
import { ALERT_TYPE_NAMES } from '../contract/alert-rules';
import { SCAN_UNIVERSE_LABELS, type ScanUniverse } from '../contract/custom-scans';
import { ALERT_SMS_MAX_CHARS, asOfLine, fitSms, formatAlertPercent, formatAlertPrice, sourceSuffix, truncateText } from './format';

/** A message for both channels. */
export interface AlertMessage {
  /** ≤ 160 characters. */
  smsText: string;
  emailSubject: string;
  emailText: string;
}

/** Where the numbers of a message come from: named in it when given. */
export interface AlertMessageSource {
  /** The market-data source (e.g. 'Simulated market', 'Finnhub'). */
  source?: string;
  /** When the source priced the numbers (ms). */
  asOfMs?: number;
}

const subject = (headline: string, typeName: string) => `Signalboard alert: ${headline} (${typeName})`;

/** Whitespace runs (newlines from a provider's text) become one space. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The e-mail's source and as-of lines, when known. */
function sourceLines(meta: AlertMessageSource): string[] {
  const lines: string[] = [];
  if (meta.source !== undefined && meta.source.trim() !== '') lines.push(`Source: ${meta.source.trim()}`);
  if (meta.asOfMs !== undefined && Number.isFinite(meta.asOfMs)) lines.push(`As of: ${asOfLine(meta.asOfMs)}`);
  return lines;
}

/** "150", "152.5": a strike as contract names write it. */
function formatStrike(strike: number): string {
  return String(Math.round(strike * 100) / 100);
}

/**
 * `prefix` and as many of `parts` (joined by ", ") as fit in an SMS with `suffix`, then "+N more".
 */
function listSms(prefix: string, parts: readonly string[], suffix: string): string {
  const full = prefix + parts.join(', ');
  if (full.length + suffix.length <= 160) return full + suffix;
  let shown = '';
  let count = 0;
  for (const part of parts) {
    const next = count === 0 ? part : `${shown}, ${part}`;
    const more = ` +${parts.length - count - 1} more`;
    if (prefix.length + next.length + more.length + suffix.length > 160) break;
    shown = next;
    count += 1;
  }
  if (count === 0) return fitSms(`${prefix}${parts[0] ?? ''}`, ` +${parts.length - 1} more${suffix}`);
  return `${prefix}${shown} +${parts.length - count} more${suffix}`;
}

function requireSome(items: readonly unknown[], what: string): void {
  if (items.length === 0) throw new RangeError(`${what} needs at least one item: a pass with nothing new sends no alert`);
}

/** OPTION_ALERT: "New CALL NVDA 2026-12-19 150C, entry 4.10, strength 75/100". */
export function optionTradeOpenedMessage(
  trade: { symbol: string; type: 'CALL' | 'PUT'; expiration: string; strike: number; entry: number; strength: number } & AlertMessageSource,
): AlertMessage {
  const contract = `${trade.symbol} ${trade.expiration} ${formatStrike(trade.strike)}${trade.type === 'CALL' ? 'C' : 'P'}`;
  const strength = `${Math.round(trade.strength)}/100`;
  const main = `New ${trade.type} ${contract}, entry ${formatAlertPrice(trade.entry)}, strength ${strength}`;
  return {
    smsText: fitSms(main, sourceSuffix(trade.source, trade.asOfMs)),
    emailSubject: subject(`New ${trade.type} ${contract}`, ALERT_TYPE_NAMES.OPTION_ALERT),
    emailText: [
      `The option engine opened a new ${trade.type} trade on ${trade.symbol}.`,
      '',
      `Contract: ${contract}`,
      `Entry (option price): ${formatAlertPrice(trade.entry)}`,
      `Strength: ${strength}`,
      ...sourceLines(trade),
    ].join('\n'),
  };
}

const DROP_TYPE_NAMES: Readonly<Record<string, string>> = { S: 'Short', L: 'Long', O: 'Option' };

/**
 * STOCK_DROP_ALERTS: one message per daily pass listing its new items ("3 new drop items: AAPL Short
 * at 212.40, MSFT Long at 498.20, …"); the SMS lists as many as fit, then "+N more". Throws on an
 * empty list (a pass with nothing new sends nothing).
 */
export function dropItemsMessage(items: ReadonlyArray<{ symbol: string; tradeType: string; entry?: number }>, meta: AlertMessageSource = {}): AlertMessage {
  requireSome(items, 'dropItemsMessage');
  const parts = items.map((item) => {
    const type = DROP_TYPE_NAMES[item.tradeType] ?? item.tradeType;
    return item.entry === undefined ? `${item.symbol} ${type}` : `${item.symbol} ${type} at ${formatAlertPrice(item.entry)}`;
  });
  const title = `${items.length} new drop item${items.length === 1 ? '' : 's'}`;
  return {
    smsText: listSms(`${title}: `, parts, sourceSuffix(meta.source, meta.asOfMs)),
    emailSubject: subject(title, ALERT_TYPE_NAMES.STOCK_DROP_ALERTS),
    emailText: [`Today's drop-item pass opened ${title}:`, '', ...parts.map((part) => `- ${part}`), '', ...sourceLines(meta)].join('\n').trimEnd(),
  };
}

/**
 * ALLSTOCKS_PROGRESS_ALERT: one message per swing-trade pass ("Swing trades: AAPL opened at 212.40,
 * MSFT target 520.00 hit at 521.30"). Throws on an empty list.
 */
export function swingProgressMessage(
  events: ReadonlyArray<{ symbol: string; kind: 'opened' | 'target'; price: number; level?: number }>,
  meta: AlertMessageSource = {},
): AlertMessage {
  requireSome(events, 'swingProgressMessage');
  const parts = events.map((event) =>
    event.kind === 'opened'
      ? `${event.symbol} opened at ${formatAlertPrice(event.price)}`
      : `${event.symbol} target ${event.level === undefined ? '' : `${formatAlertPrice(event.level)} `}hit at ${formatAlertPrice(event.price)}`,
  );
  const opened = events.filter((event) => event.kind === 'opened').length;
  const targets = events.length - opened;
  const counts = [
    ...(opened > 0 ? [`${opened} opened`] : []),
    ...(targets > 0 ? [`${targets} target${targets === 1 ? '' : 's'} hit`] : []),
  ].join(', ');
  return {
    smsText: listSms('Swing trades: ', parts, sourceSuffix(meta.source, meta.asOfMs)),
    emailSubject: subject(`swing trades ${counts}`, ALERT_TYPE_NAMES.ALLSTOCKS_PROGRESS_ALERT),
    emailText: [`The swing-trade scanner's pass: ${counts}.`, '', ...parts.map((part) => `- ${part}`), '', ...sourceLines(meta)].join('\n').trimEnd(),
  };
}

const IDEA_EVENT_TEXT = { target: 'target hit', stop: 'stop hit', time_exit: 'time exit', deactivated: 'deactivated' } as const;
const IDEA_SCREEN_TEXT = { option: 'saved option alert', drop: 'saved drop alert' } as const;

/**
 * A saved option or drop-item alert's idea event: "NVDA 2026-12-19 150C: target hit at 5.33 (saved
 * option alert)". `label` names the idea (the contract, or the drop item's type).
 */
export function savedIdeaEventMessage(
  event: { kind: keyof typeof IDEA_EVENT_TEXT; screen: keyof typeof IDEA_SCREEN_TEXT; symbol: string; label: string; price: number } & AlertMessageSource,
): AlertMessage {
  const what = IDEA_EVENT_TEXT[event.kind];
  const screen = IDEA_SCREEN_TEXT[event.screen];
  const label = oneLine(event.label);
  const name = label === '' || label.startsWith(`${event.symbol} `) || label === event.symbol ? label || event.symbol : `${event.symbol} ${label}`;
  const main = `${name}: ${what} at ${formatAlertPrice(event.price)} (${screen})`;
  return {
    smsText: fitSms(main, sourceSuffix(event.source, event.asOfMs)),
    emailSubject: `Signalboard alert: ${event.symbol} ${what} (${screen})`,
    emailText: [`${main}.`, '', `Idea: ${name}`, `Event: ${what}`, `Price: ${formatAlertPrice(event.price)}`, ...sourceLines(event)].join('\n'),
  };
}

const HORIZON_TEXT: Readonly<Record<string, string>> = { Short: 'short-term', Medium: 'medium-term', Long: 'long-term' };

/** BITCOIN's signal change: "BTC short-term signal Hold → Buy at 96,120.55". */
export function cryptoLabelChangeMessage(change: { symbol: string; horizon: string; from: string; to: string; price: number } & AlertMessageSource): AlertMessage {
  const horizon = HORIZON_TEXT[change.horizon] ?? change.horizon;
  const main = `${change.symbol} ${horizon} signal ${change.from} → ${change.to} at ${formatAlertPrice(change.price)}`;
  return {
    smsText: fitSms(main, sourceSuffix(change.source, change.asOfMs)),
    emailSubject: subject(`${change.symbol} ${horizon} signal ${change.to}`, ALERT_TYPE_NAMES.BITCOIN),
    emailText: [
      `The crypto scanner's ${horizon} signal for ${change.symbol} changed from ${change.from} to ${change.to}.`,
      '',
      `Price: ${formatAlertPrice(change.price)}`,
      ...sourceLines(change),
    ].join('\n'),
  };
}

/** How many characters of the gist an SMS keeps before the headlines share the rest. */
const SMS_GIST_MAX = 36;

/**
 * A news batch (GENERAL_NEWS and the two Trump & Mag 7 types): the count, the top 3 headlines and the
 * analyst's one-line gist ("4 new articles (Economy Monetary): Fed holds rates | … — Rates on hold").
 * `topic` is the category or keyword; `source` the news provider (said so in the message).
 */
export function newsBatchMessage(
  batch: { count: number; headlines: readonly string[]; gist: string; topic?: string; typeName?: string } & AlertMessageSource,
): AlertMessage {
  const top = batch.headlines.slice(0, 3).map(oneLine).filter((h) => h !== '');
  const gist = oneLine(batch.gist);
  const title = `${batch.count} new article${batch.count === 1 ? '' : 's'}${batch.topic ? ` (${oneLine(batch.topic)})` : ''}`;
  const suffix = sourceSuffix(batch.source, batch.asOfMs);
  const compose = (headlines: readonly string[], g: string) => `${title}: ${headlines.join(' | ')}${g === '' ? '' : ` — ${g}`}`;
  let sms = compose(top, gist) + suffix;
  if (sms.length > 160) {
    const shortGist = truncateText(gist, SMS_GIST_MAX);
    const fixed = compose(top.map(() => ''), shortGist).length + suffix.length;
    const each = Math.max(12, Math.floor((160 - fixed) / Math.max(1, top.length)));
    sms = fitSms(compose(top.map((h) => truncateText(h, each)), shortGist), suffix);
  }
  return {
    smsText: sms,
    emailSubject: subject(title, batch.typeName ?? ALERT_TYPE_NAMES.GENERAL_NEWS),
    emailText: [
      `${title}.`,
      '',
      ...top.map((h, i) => `${i + 1}. ${h}`),
      ...(gist === '' ? [] : ['', `In one line: ${gist}`]),
      '',
      ...sourceLines(batch),
    ].join('\n').trimEnd(),
  };
}

/** A symbol that newly matches a saved scan: its close, change and the values of the fields the scan reads. */
export interface ScanEntry {
  symbol: string;
  price: number | null;
  changePct?: number | null;
  /** The scan's columns at the run bar (`RSI(14)`, `% below high (21)`), in the scan's order. */
  values?: ReadonlyArray<{ label: string; value: number | string | null }>;
}

/** How many characters of a scan's name and formula an SMS keeps when the whole does not fit (the symbols get the rest). */
const SMS_SCAN_NAME_MAX = 20;
const SMS_FORMULA_MAX = 40;

const formatScanValue = (value: number | string | null) =>
  value === null ? 'n/a' : typeof value === 'string' ? value : Number.isInteger(value) ? String(value) : (Math.round(value * 100) / 100).toFixed(2);

/** "NVDA 180.20" (or "NVDA" without a price): a scan entry as the SMS lists it. */
const scanEntryParts = (entries: readonly ScanEntry[]) => entries.map((entry) => (entry.price === null ? entry.symbol : `${entry.symbol} ${formatAlertPrice(entry.price)}`));

/** "- NVDA 180.20 (+1.2%): RSI(14) 27.35, SMA(200) 198.20": a scan entry as the e-mail lists it. */
const scanEntryLines = (entries: readonly ScanEntry[], parts: readonly string[]) =>
  entries.map((entry, index) => {
    const change = entry.changePct === undefined || entry.changePct === null ? '' : ` (${formatAlertPercent(entry.changePct)})`;
    const values = (entry.values ?? []).map(({ label, value }) => `${label} ${formatScanValue(value)}`).join(', ');
    return `- ${parts[index]}${change}${values === '' ? '' : `: ${values}`}`;
  });

/**
 * CUSTOM_SCAN (docs/custom-scans.md "Custom Scan alerts"): the symbols that newly match a saved scan
 * after a daily pass, one message per scan and session: 'New in "Oversold": AAPL 212.40, MSFT 498.20
 * +1 more | rsi(14) < 30 and close > sma(200) · Simulated market 2026-12-03 close'. The SMS is
 * whole when it fits; else the name is cut to 20 characters and the conditions (the scan's formula)
 * to 40, and it lists as many symbols as fit, then "+N more". The e-mail has the formula whole and
 * each symbol's values of the fields the scan reads. `session` is the date of the bars the scan ran
 * on (YYYY-MM-DD). Throws on no entries.
 */
export function customScanEntriesMessage(input: {
  scanName: string;
  formula: string;
  universe: ScanUniverse;
  session: string;
  entries: readonly ScanEntry[];
  source?: string;
}): AlertMessage {
  requireSome(input.entries, 'customScanEntriesMessage');
  const name = oneLine(input.scanName);
  const formula = oneLine(input.formula);
  const source = input.source?.trim() ? truncateText(input.source.trim(), 40) : '';
  const asOf = `${source === '' ? '' : `${source} `}${input.session} close`;
  const parts = scanEntryParts(input.entries);
  const count = input.entries.length;
  const title = `${count} new in "${name}"`;
  const whole = `New in "${name}": ${parts.join(', ')} | ${formula} · ${asOf}`;
  const lines = scanEntryLines(input.entries, parts);
  return {
    smsText: whole.length <= ALERT_SMS_MAX_CHARS ? whole : listSms(`New in "${truncateText(name, SMS_SCAN_NAME_MAX)}": `, parts, ` | ${truncateText(formula, SMS_FORMULA_MAX)} · ${asOf}`),
    emailSubject: subject(title, ALERT_TYPE_NAMES.CUSTOM_SCAN),
    emailText: [
      `${count} symbol${count === 1 ? '' : 's'} newly match${count === 1 ? 'es' : ''} your saved scan "${name}" at the close of ${input.session}:`,
      '',
      ...lines,
      '',
      `Conditions: ${formula}`,
      `Universe: ${SCAN_UNIVERSE_LABELS[input.universe]}`,
      ...(source === '' ? [] : [`Source: ${source}`]),
      `As of: the close of ${input.session} (that session's daily bars)`,
    ].join('\n'),
  };
}

/**
 * CUSTOM_SCAN during the session (docs/custom-scans.md "Custom Scan alerts", "During the session"):
 * the symbols that newly match a saved scan on their live price, one message per scan and poll:
 * 'Intraday new in "Oversold": NVDA 180.20 | rsi(14) < 30 and close > sma(200) · Simulated market
 * 11:05 ET'. The SMS is cut as customScanEntriesMessage's (the name to 20 characters, the conditions
 * to 40, then the symbols that fit and "+N more"), the source and the time kept whole. `asOfMs` is
 * when the prices were quoted; `session` the session under way (YYYY-MM-DD). Throws on no entries.
 */
export function customScanIntradayMessage(input: {
  scanName: string;
  formula: string;
  universe: ScanUniverse;
  session: string;
  asOfMs: number;
  entries: readonly ScanEntry[];
  source?: string;
}): AlertMessage {
  requireSome(input.entries, 'customScanIntradayMessage');
  const name = oneLine(input.scanName);
  const formula = oneLine(input.formula);
  const suffix = sourceSuffix(input.source, input.asOfMs);
  const parts = scanEntryParts(input.entries);
  const count = input.entries.length;
  const whole = `Intraday new in "${name}": ${parts.join(', ')} | ${formula}${suffix}`;
  const source = input.source?.trim() ?? '';
  return {
    smsText: whole.length <= ALERT_SMS_MAX_CHARS ? whole : listSms(`Intraday new in "${truncateText(name, SMS_SCAN_NAME_MAX)}": `, parts, ` | ${truncateText(formula, SMS_FORMULA_MAX)}${suffix}`),
    emailSubject: subject(`${count} new intraday in "${name}"`, ALERT_TYPE_NAMES.CUSTOM_SCAN),
    emailText: [
      `${count} symbol${count === 1 ? '' : 's'} newly match${count === 1 ? 'es' : ''} your saved scan "${name}" during the session of ${input.session}, on the live price:`,
      '',
      ...scanEntryLines(input.entries, parts),
      '',
      `Conditions: ${formula}`,
      `Universe: ${SCAN_UNIVERSE_LABELS[input.universe]}`,
      ...(source === '' ? [] : [`Source: ${source}`]),
      ...(Number.isFinite(input.asOfMs) ? [`As of: ${asOfLine(input.asOfMs)}, the live price as the session's close so far, after the daily bars of the sessions before`] : []),
      'The session is not over: its close may leave these symbols out of the scan. The pass after the close does not alert them again.',
    ].join('\n'),
  };
}
