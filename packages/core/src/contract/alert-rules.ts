import { z } from 'zod';
import { singleLineText } from '../validation/text';

/**
 * Alert preferences and delivery settings (issue 14; spec §2 "Alert System Settings", §5 "Alert
 * preferences save", §7, §8 "Alert preferences", §9 "Alert types"; docs/rules/alerts.md "The eleven
 * types", "The rule as stored and exchanged", "Delivery"). One rule per (user, alert_type). The
 * screen and the server validate with the same functions below, so they say the same words.
 */

/**
 * The alert types: the spec's ten (§9), in the spec's order, then CUSTOM_SCAN (issue 26: new matches
 * of the user's saved scans, docs/custom-scans.md "Custom Scan alerts").
 */
export const ALERT_TYPES = [
  'PERCENT_DROP',
  'CURRENT_PRICE',
  'BITCOIN',
  'OPTION_ALERT',
  'GENERAL_NEWS',
  'NEWS+TRUMP+MAG7+ALPHA',
  'NEWS+TRUMP+MAG7+GNEWS',
  'LEVEL_SYSTEM',
  'STOCK_DROP_ALERTS',
  'ALLSTOCKS_PROGRESS_ALERT',
  'CUSTOM_SCAN',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Each type's name, as spec §9 writes it (used in '<type name> alert preferences saved successfully!'); Custom Scan is ours. */
export const ALERT_TYPE_NAMES: Readonly<Record<AlertType, string>> = {
  PERCENT_DROP: 'Percent Drop',
  CURRENT_PRICE: 'Current Price',
  BITCOIN: 'Cryptocurrency',
  OPTION_ALERT: 'Alert New Options',
  GENERAL_NEWS: 'General Market News',
  'NEWS+TRUMP+MAG7+ALPHA': 'TRUMP & MAGNIFICENT 7 BY ALPHA NEWS',
  'NEWS+TRUMP+MAG7+GNEWS': 'TRUMP & MAGNIFICENT 7 BY GNEWS',
  LEVEL_SYSTEM: 'Level System',
  STOCK_DROP_ALERTS: 'Stock Drop Best of S&P 500',
  ALLSTOCKS_PROGRESS_ALERT: 'Stock Drop Alerts Swing Trade Scanner',
  CUSTOM_SCAN: 'Custom Scan',
};

/**
 * Where a type's symbols come from: the user's favourites, the six coins, the option tickers, the four
 * news categories, the eight Trump/Mag 7 keywords, the user's saved scans (`stock_symbols` then holds
 * scan ids as text, e.g. "12"), or none (no symbol selection).
 */
export type AlertSymbolSource = 'favorites' | 'crypto' | 'option_tickers' | 'news_categories' | 'news_keywords' | 'saved_scans' | 'none';

export const ALERT_TYPE_SYMBOL_SOURCE: Readonly<Record<AlertType, AlertSymbolSource>> = {
  PERCENT_DROP: 'favorites',
  CURRENT_PRICE: 'favorites',
  BITCOIN: 'crypto',
  OPTION_ALERT: 'option_tickers',
  GENERAL_NEWS: 'news_categories',
  'NEWS+TRUMP+MAG7+ALPHA': 'news_keywords',
  'NEWS+TRUMP+MAG7+GNEWS': 'news_keywords',
  LEVEL_SYSTEM: 'favorites',
  STOCK_DROP_ALERTS: 'none',
  ALLSTOCKS_PROGRESS_ALERT: 'none',
  CUSTOM_SCAN: 'saved_scans',
};

/** The coins of the Cryptocurrency type (spec §9). */
export const ALERT_CRYPTO_SYMBOLS: readonly string[] = ['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE'];

/**
 * The fixed list behind the OPTION_ALERT alert type (spec §9: "about 57 tickers: SPY, NVDA, TSLA,
 * QQQ, AAPL and others"): the most actively traded US options; also the option engine's underlyings.
 */
export const OPTION_ALERT_TICKERS: readonly string[] = [
  'SPY', 'NVDA', 'TSLA', 'QQQ', 'AAPL', 'AMZN', 'META', 'MSFT', 'GOOGL', 'AMD',
  'NFLX', 'IWM', 'PLTR', 'COIN', 'BA', 'AVGO', 'MU', 'INTC', 'UBER', 'DIS',
  'JPM', 'BAC', 'WFC', 'C', 'GS', 'XOM', 'CVX', 'OXY', 'PFE', 'MRK',
  'LLY', 'UNH', 'ABBV', 'WMT', 'COST', 'TGT', 'HD', 'NKE', 'SBUX', 'MCD',
  'PYPL', 'XYZ', 'HOOD', 'SMCI', 'ORCL', 'CRM', 'ADBE', 'QCOM', 'CSCO', 'F',
  'GM', 'T', 'VZ', 'DIA', 'XLF', 'XLE', 'GLD',
];

/** The General Market News categories (spec §9), as shown and stored. */
export const ALERT_NEWS_CATEGORIES: readonly string[] = ['Economy Monetary', 'Economy Fiscal', 'Economy Macro', 'Financial Markets'];

/** The keywords of the two Trump & Magnificent 7 news types (spec §9). */
export const ALERT_NEWS_KEYWORDS: readonly string[] = ['TRUMP', 'NVDA', 'TSLA', 'MSFT', 'AMZN', 'GOOGL', 'META', 'AAPL'];

/** The fixed choice of a source; null for favourites and saved scans (per user) and for none. */
export function alertFixedSymbols(source: AlertSymbolSource): readonly string[] | null {
  switch (source) {
    case 'crypto':
      return ALERT_CRYPTO_SYMBOLS;
    case 'option_tickers':
      return OPTION_ALERT_TICKERS;
    case 'news_categories':
      return ALERT_NEWS_CATEGORIES;
    case 'news_keywords':
      return ALERT_NEWS_KEYWORDS;
    default:
      return null;
  }
}

/** Limits (spec §5, §9; docs/rules/alerts.md). */
export const ALERT_MAX_SYMBOLS = 10;
export const ALERT_THRESHOLD_MIN = 1;
export const ALERT_THRESHOLD_MAX = 100;
export const ALERT_THRESHOLD_DEFAULT = 5;
export const ALERT_TARGET_PRICE_MAX = 1_000_000;

/** Only Percent Drop has a threshold. */
export const alertTypeHasThreshold = (type: AlertType) => type === 'PERCENT_DROP';
/** Current Price and Cryptocurrency carry a target price and direction per chosen symbol. */
export const alertTypeHasTargets = (type: AlertType) => type === 'CURRENT_PRICE' || type === 'BITCOIN';
/** STOCK_DROP_ALERTS and ALLSTOCKS_PROGRESS_ALERT have no symbol selection. */
export const alertTypeHasSymbols = (type: AlertType) => ALERT_TYPE_SYMBOL_SOURCE[type] !== 'none';

/** Messages (spec §5, §8; docs/rules/alerts.md). */
export const ALERT_SYMBOLS_REQUIRED_MESSAGE = 'Please select at least one symbol for alerts.';
export const ALERT_SYMBOLS_MAX_MESSAGE = 'You can select up to 10 symbols for alerts.';
export const ALERT_CRYPTO_MAX_MESSAGE = 'You can select up to 10 cryptocurrencies for alerts.';
export const ALERT_SCANS_REQUIRED_MESSAGE = 'Please select at least one saved scan for alerts.';
export const ALERT_SCANS_MAX_MESSAGE = 'You can select up to 10 saved scans for alerts.';
export const ALERT_SCANS_LOAD_FAILED_MESSAGE = 'Could not load your saved scans for alert selection.';
export const ALERT_THRESHOLD_MESSAGE = 'Please enter a valid Drop Percentage (1-100).';
export const ALERT_TARGET_PRICE_MESSAGE = 'Please enter a valid target price (greater than 0, up to 1,000,000).';
export const ALERT_SMS_NEEDS_PHONE_MESSAGE = 'Please verify a phone number to receive SMS alerts.';
export const ALERT_SAVING_MESSAGE = 'Saving alert preferences...';
export const ALERT_SAVE_FAILED_MESSAGE = 'Failed to save alert preferences.';
export const ALERT_FAVORITES_LOAD_FAILED_MESSAGE = 'Could not load favorite stocks for alert selection.';
export const ALERT_TYPE_MESSAGE = `alert_type must be one of: ${ALERT_TYPES.join(', ')}`;
/** '<type name> alert preferences saved successfully!' */
export const alertSavedMessage = (type: AlertType) => `${ALERT_TYPE_NAMES[type]} alert preferences saved successfully!`;
/** 'Could not load <type name> alert settings.' */
export const alertLoadFailedMessage = (type: AlertType) => `Could not load ${ALERT_TYPE_NAMES[type]} alert settings.`;
/** A chosen symbol without its target (Current Price, Cryptocurrency). */
export const alertTargetMissingMessage = (symbol: string) => `Please enter a target price for ${symbol}.`;
/** A chosen symbol outside the type's source. */
export function alertSymbolNotAllowedMessage(type: AlertType, symbol: string): string {
  switch (ALERT_TYPE_SYMBOL_SOURCE[type]) {
    case 'favorites':
      return `${symbol} is not one of your favorite stocks. Add it to your favorites first.`;
    case 'saved_scans':
      return `Scan ${symbol} is not one of your saved scans: ${ALERT_TYPE_NAMES[type]} alerts watch your own scans only.`;
    default:
      return `${symbol} is not a choice of ${ALERT_TYPE_NAMES[type]} alerts.`;
  }
}

/** The ten-symbol message of a type (cryptocurrencies wording for the crypto type, saved scans for Custom Scan). */
export function alertSymbolsMaxMessage(type: AlertType): string {
  if (type === 'BITCOIN') return ALERT_CRYPTO_MAX_MESSAGE;
  return ALERT_TYPE_SYMBOL_SOURCE[type] === 'saved_scans' ? ALERT_SCANS_MAX_MESSAGE : ALERT_SYMBOLS_MAX_MESSAGE;
}

/** The nothing-chosen message of a type (saved scans for Custom Scan). */
export const alertSymbolsRequiredMessage = (type: AlertType) => (ALERT_TYPE_SYMBOL_SOURCE[type] === 'saved_scans' ? ALERT_SCANS_REQUIRED_MESSAGE : ALERT_SYMBOLS_REQUIRED_MESSAGE);

/**
 * A symbol as stored: upper-case, except the news categories, which keep their spec spelling (matched
 * case-insensitively), and scan ids, written without leading zeros ("012" is scan 12).
 */
export function normalizeAlertSymbol(type: AlertType, symbol: string): string {
  const trimmed = symbol.trim();
  const source = ALERT_TYPE_SYMBOL_SOURCE[type];
  if (source === 'news_categories') {
    return ALERT_NEWS_CATEGORIES.find((category) => category.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
  }
  if (source === 'saved_scans' && /^\d+$/.test(trimmed)) return trimmed.replace(/^0+(?=\d)/, '');
  return trimmed.toUpperCase();
}

export const alertTargetDirection = z.enum(['above', 'below'], { error: "direction must be 'above' or 'below'" });
export type AlertTargetDirection = z.infer<typeof alertTargetDirection>;

/** A target of Current Price and Cryptocurrency: the price crossed `direction`. */
export const alertTarget = z.object({
  symbol: singleLineText('symbol', { max: 40, required: true, examples: ['BTC'] }),
  price: z.number({ error: ALERT_TARGET_PRICE_MESSAGE }),
  direction: alertTargetDirection,
});
export type AlertTarget = z.output<typeof alertTarget>;

/** What the shared check reads of a save (the structure already parsed). */
export interface AlertPreferencesInput {
  alert_type: AlertType;
  stock_symbols: readonly string[];
  threshold_value?: number | null;
  targets?: ReadonlyArray<{ symbol: string; price: number; direction: AlertTargetDirection }>;
}

/**
 * The first problem of a save, in the order the screen checks them (symbols required, ten at most,
 * the threshold, each target), or null. `allowed` is the type's choice (the user's favourites for the
 * favourites types, the ids of the user's saved scans for Custom Scan); when given, a symbol outside
 * it is refused. Symbols are compared normalized.
 */
export function alertPreferencesProblem(input: AlertPreferencesInput, allowed?: readonly string[] | null): string | null {
  const type = input.alert_type;
  const symbols = [...new Set(input.stock_symbols.map((symbol) => normalizeAlertSymbol(type, symbol)))];
  if (alertTypeHasSymbols(type)) {
    if (symbols.length === 0) return alertSymbolsRequiredMessage(type);
    if (symbols.length > ALERT_MAX_SYMBOLS) return alertSymbolsMaxMessage(type);
  }
  if (alertTypeHasThreshold(type)) {
    const threshold = input.threshold_value;
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < ALERT_THRESHOLD_MIN || threshold > ALERT_THRESHOLD_MAX) {
      return ALERT_THRESHOLD_MESSAGE;
    }
  }
  if (alertTypeHasSymbols(type) && allowed) {
    const choice = new Set(allowed.map((symbol) => normalizeAlertSymbol(type, symbol)));
    const outside = symbols.find((symbol) => !choice.has(symbol));
    if (outside !== undefined) return alertSymbolNotAllowedMessage(type, outside);
  }
  if (alertTypeHasTargets(type)) {
    const targets = input.targets ?? [];
    for (const symbol of symbols) {
      const target = targets.find((candidate) => normalizeAlertSymbol(type, candidate.symbol) === symbol);
      if (!target) return alertTargetMissingMessage(symbol);
      if (!isValidAlertTargetPrice(target.price)) return ALERT_TARGET_PRICE_MESSAGE;
    }
  }
  return null;
}

/** 0 < price ≤ 1,000,000. */
export const isValidAlertTargetPrice = (price: number) => Number.isFinite(price) && price > 0 && price <= ALERT_TARGET_PRICE_MAX;

export const alertType = z.enum(ALERT_TYPES, { error: ALERT_TYPE_MESSAGE });

/**
 * POST api/save_alert_preferences. stock_symbols is empty for the two types without symbols and
 * holds saved-scan ids for CUSTOM_SCAN (["12", "15"]);
 * threshold_value is the Percent Drop threshold (null, or left out, for other types: stored null);
 * targets one per chosen symbol for CURRENT_PRICE and BITCOIN (ignored, stored empty, for others).
 * The shared check runs here, so a bad save answers 400 with the screen's message.
 */
export const saveAlertPreferencesRequest = z
  .object({
    alert_type: alertType,
    stock_symbols: z
      .array(singleLineText('Symbol', { max: 40, required: true, typeError: 'Each symbol must be text', examples: ['AAPL'] }), {
        error: 'stock_symbols must be a list of symbols',
      })
      .max(200, ALERT_SYMBOLS_MAX_MESSAGE)
      .default([]),
    threshold_value: z.number({ error: ALERT_THRESHOLD_MESSAGE }).nullable().optional(),
    enable_sms: z.boolean({ error: 'enable_sms must be true or false' }).default(false),
    enable_email: z.boolean({ error: 'enable_email must be true or false' }).default(false),
    is_active: z.boolean({ error: 'is_active must be true or false' }).default(true),
    targets: z.array(alertTarget, { error: 'targets must be a list of { symbol, price, direction }' }).max(200, ALERT_SYMBOLS_MAX_MESSAGE).optional(),
  })
  .superRefine((input, ctx) => {
    const problem = alertPreferencesProblem(input);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [] });
  });
export type SaveAlertPreferencesRequest = z.input<typeof saveAlertPreferencesRequest>;

/** A stored rule, as answered. */
export const alertRule = z.object({
  alert_type: alertType,
  stock_symbols: z.array(z.string()),
  threshold_value: z.number().nullable(),
  is_active: z.boolean(),
  enable_email: z.boolean(),
  enable_sms: z.boolean(),
  targets: z.array(z.object({ symbol: z.string(), price: z.number(), direction: alertTargetDirection })),
  /** The rule's symbols no longer in its source (a deleted favourite, a deleted saved scan); they stay saved until the next save. */
  unavailable_symbols: z.array(z.string()),
  updated_at: z.string(),
  /** When the rule was paused for firing more than 15 times in 3 minutes (ISO); null otherwise. A save clears it. */
  auto_paused_at: z.string().nullable().optional(),
});
export type AlertRule = z.infer<typeof alertRule>;

/**
 * The answer of a save: '<type name> alert preferences saved successfully!', the rule as stored, and
 * a notice per symbol whose condition is already true (docs/rules/alerts.md §1.3 "Created already true": the alert
 * waits for a new crossing), e.g. 'AAPL is already 6.2% below the previous close: the alert fires on
 * the next drop'.
 */
export const saveAlertPreferencesResponse = z.object({ msg: z.string(), data: alertRule, notices: z.array(z.string()).default([]) });
export type SaveAlertPreferencesResponse = z.infer<typeof saveAlertPreferencesResponse>;

/** POST api/get_user_alert_rules. */
export const getUserAlertRulesRequest = z.object({ alert_type: alertType });
export type GetUserAlertRulesRequest = z.input<typeof getUserAlertRulesRequest>;

/** The user's rule of that type, or `{ data: null }` when there is none. */
export const getUserAlertRulesResponse = z.object({ data: alertRule.nullable() });
export type GetUserAlertRulesResponse = z.infer<typeof getUserAlertRulesResponse>;
