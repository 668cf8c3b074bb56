/**
 * The OpenAPI 3.1 document of every call, generated from the zod contract in packages/core, and
 * served at GET /api/docs (behind the token, like every call but login, forgot-password and health).
 */
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import {
  alertHistoryQuery,
  getAlertHistoryResponse,
  resumeAlertEmailResponse,
  twilioInboundMessage,
  twilioStatusCallback,
  unsubscribeOneClickBody,
  unsubscribeQuery,
  cryptoScannerQuery,
  getUserPhoneNumberResponse,
  getAlertDeliverySettingsResponse,
  getUserAlertRulesRequest,
  getUserAlertRulesResponse,
  saveAlertDeliverySettingsRequest,
  saveAlertDeliverySettingsResponse,
  saveAlertPreferencesRequest,
  saveAlertPreferencesResponse,
  sendTestAlertRequest,
  sendTestAlertResponse,
  sendVerificationCodeRequest,
  sendVerificationCodeResponse,
  verifyCodeRequest,
  verifyCodeResponse,
  cryptoScorecardQuery,
  cryptoScorecardResponse,
  cryptoTradesResponse,
  dropItemsResponse,
  ideaListQuery,
  optionTradesResponse,
  trackRecordQuery,
  batchUpdateFavoriteStocksRequest,
  batchUpdateFavoriteStocksResponse,
  companyNewsQuery,
  contactSupportFields,
  deleteFavoriteStocksRequest,
  deleteFavoriteStocksResponse,
  earningsCalendarRequest,
  earningsCalendarResponse,
  errorBody,
  forgotPasswordRequest,
  getEmailResponse,
  getFavoriteStocksResponse,
  healthResponse,
  readyPublicResponse,
  highLowRequest,
  highLowResponse,
  loginRequest,
  loginResponse,
  metricsResponse,
  msgBody,
  newsListResponse,
  newsSentimentResponse,
  quoteResponse,
  rsiQuery,
  rsiResponse,
  supportResistanceQuery,
  supportResistanceResponse,
  symbolLookupQuery,
  symbolLookupResponse,
  symbolQuery,
  symbolSearchQuery,
  symbolSearchResponse,
  trendDirectionRequest,
  trendDirectionResponse,
  updatePasswordRequest,
  dropScanRequest,
  dropScanResponse,
  allOverallSentimentResponse,
  economicIndicatorsResponse,
  marketOverviewResponse,
  sectorSentimentResponse,
  favoriteQuotesResponse,
  optionScanEvent,
  newsAnalysisRequest,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  newsAnalysisResponse,
  trumpNewsAnalysisRequest,
  ideaDetail,
  layeredTrade,
  replayStatusResponse,
  singleLineText,
  swingTrade,
  tradeEngine,
  trackRecord,
  getUserOptionAlertsResponse,
  getUserStockScannerAlertsResponse,
  saveUserOptionAlertsRequest,
  saveUserOptionAlertsResponse,
  saveUserStockScannerAlertsRequest,
  saveUserStockScannerAlertsResponse,
  liveStreamEvent,
  liveSymbolsRequest,
} from '@signalboard/core';
import { APP_VERSION } from '../health/health.routes';

/** Error statuses an operation can answer, each with a JSON `{ msg }` body (errorBody). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 415 | 429 | 502 | 503;

export interface Operation {
  method: 'get' | 'post';
  path: string;
  summary: string;
  open?: boolean;
  query?: ZodType;
  /** Path parameters (`{name}` in `path`; Fastify's `:name`). */
  params?: ZodType;
  body?: ZodType;
  bodyType?: 'json' | 'form' | 'multipart';
  response: ZodType;
  /**
   * The 200 answer's media type (default application/json); `ndjson`: one `response` a line, streamed;
   * `csv`: text/csv (a download; `response` describes it as a string); `html` a page; `xml` TwiML.
   */
  responseType?: 'ndjson' | 'csv' | 'html' | 'xml';
  /**
   * Error statuses beyond those every operation of its kind answers (see errorStatuses): 400 for
   * any input, 401 behind the token, 413 and 415 for a POST body.
   */
  errors?: ErrorStatus[];
  /**
   * The call changes the signed-in account itself (its password, whether it is active): documented
   * as `x-changes-account`, so tools that try calls (the fuzz test) run it last, on an account of its own.
   */
  changesAccount?: true;
  /** A non-2xx status that answers the `response` schema too (not `{ msg }`), e.g. readiness's 503. */
  alsoAnswers?: { status: 503; description: string };
  /** A stream that stays open until the client leaves (documented as `x-streams-until-closed`; the fuzz test reads its first line). */
  streamsUntilClosed?: true;
}

/** Reads market data for one symbol: unknown symbol, provider down with nothing cached, capability not configured. */
const SYMBOL_DATA: ErrorStatus[] = [404, 502, 503];
/** Reads market data not tied to one symbol. */
const MARKET_DATA: ErrorStatus[] = [502, 503];

/** The support form: the contract's fields, and the file (its name follows supportAttachmentName's rules). */
const supportForm = contactSupportFields.extend({
  file: z
    .file()
    .max(SUPPORT_ATTACHMENT_MAX_BYTES)
    .describe('At most 10 MB; its file name is one line of at most 255 characters, without control characters.')
    .optional(),
});

export const OPERATIONS: Operation[] = [
  { method: 'post', path: '/api/login', summary: 'Sign in', open: true, body: loginRequest, response: loginResponse, errors: [401, 403, 429] },
  { method: 'post', path: '/api/forgot-password', summary: 'E-mail a temporary password (always answers success)', open: true, body: forgotPasswordRequest, response: msgBody, errors: [429] },
  { method: 'get', path: '/api/health', summary: 'Health and which sources serve data', open: true, response: healthResponse },
  {
    method: 'get',
    path: '/api/ready',
    summary:
      'Readiness: each dependency (database, redis, queues, market_data, mail, sms) with its state (up, down, not_configured, degraded). With Authorization: Bearer <METRICS_TOKEN> also how long each check took (each at most 2 s) and its details (kind, error text, job counts)',
    open: true,
    response: readyPublicResponse,
    alsoAnswers: { status: 503, description: 'Not ready: a required dependency (the database; Redis when configured) is down; the same body names it' },
  },
  { method: 'post', path: '/api/update-password', summary: 'Set a new password (at most PASSWORD_CHANGE_MAX_PER_USER per PASSWORD_CHANGE_WINDOW_SECONDS; 429 beyond)', body: updatePasswordRequest, response: msgBody, errors: [429], changesAccount: true },
  { method: 'get', path: '/api/getemail', summary: "The signed-in user's e-mail", response: getEmailResponse },
  { method: 'post', path: '/api/deactivate_user', summary: 'Deactivate the signed-in account', response: msgBody, changesAccount: true },
  { method: 'get', path: '/api/get_favorite_stocks', summary: 'Favourites, oldest first', response: getFavoriteStocksResponse },
  { method: 'post', path: '/api/delete_favorite_stocks', summary: 'Remove favourites', body: deleteFavoriteStocksRequest, response: deleteFavoriteStocksResponse },
  { method: 'post', path: '/api/batch_update_favorite_stocks', summary: 'Add or update favourites (upsert by symbol)', body: batchUpdateFavoriteStocksRequest, response: batchUpdateFavoriteStocksResponse },
  { method: 'post', path: '/api/contact-support', summary: 'Send a support request: an optional attachment that is PNG, JPEG, GIF, WebP, PDF or UTF-8 text by its bytes (else 415); at most SUPPORT_MAX_PER_USER per SUPPORT_WINDOW_SECONDS (429); 503 while SUPPORT_MAX_CONCURRENT_UPLOADS uploads are being received', body: supportForm, bodyType: 'multipart', response: msgBody, errors: [429, 502, 503] },
  { method: 'get', path: '/api/symbol_lookup', summary: 'Symbols of one market matching q', query: symbolLookupQuery, response: symbolLookupResponse, errors: MARKET_DATA },
  { method: 'get', path: '/api/symbol_search', summary: 'Symbols of any market matching symbol', query: symbolSearchQuery, response: symbolSearchResponse, errors: MARKET_DATA },
  { method: 'get', path: '/api/quote', summary: 'Current quote', query: symbolQuery, response: quoteResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/quote_td', summary: 'Current quote (variant)', query: symbolQuery, response: quoteResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/fetch_metrics', summary: 'Highs, lows, RSIs, sentiment and volume-profile levels (definitions: docs/market-data.md "Metrics")', query: symbolQuery, response: metricsResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/rsi', summary: 'RSI(14) on daily closes (range) and on today', query: rsiQuery, response: rsiResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/rsi_td', summary: 'RSI(14) (variant)', query: symbolQuery, response: rsiResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/news-sentiment', summary: 'News sentiment of a symbol and its sector', query: symbolQuery, response: newsSentimentResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/support-resistance', summary: 'Support and resistance levels', query: supportResistanceQuery, response: supportResistanceResponse, errors: SYMBOL_DATA },
  { method: 'post', path: '/api/stock-high-low', summary: 'High and low of the last N days (form)', body: highLowRequest, bodyType: 'form', response: highLowResponse, errors: SYMBOL_DATA },
  { method: 'post', path: '/api/stock-high-td', summary: 'High and low of the last N days (JSON)', body: highLowRequest, response: highLowResponse, errors: SYMBOL_DATA },
  { method: 'post', path: '/api/trend-direction', summary: 'Trend of the last N days', body: trendDirectionRequest, response: trendDirectionResponse, errors: SYMBOL_DATA },
  { method: 'post', path: '/api/earnings_calendar', summary: 'Earnings releases in a date range', body: earningsCalendarRequest, response: earningsCalendarResponse, errors: MARKET_DATA },
  { method: 'post', path: '/api/earnings_calendar_td', summary: 'Earnings releases (variant)', body: earningsCalendarRequest, response: earningsCalendarResponse, errors: MARKET_DATA },
  { method: 'get', path: '/api/market-news', summary: 'Latest market news', response: newsListResponse, errors: MARKET_DATA },
  { method: 'get', path: '/api/company-news', summary: 'Company news in a date range', query: companyNewsQuery, response: newsListResponse, errors: SYMBOL_DATA },
  { method: 'get', path: '/api/docs', summary: 'This document', response: z.object({}).passthrough() },
  { method: 'post', path: '/api/scan/drops', summary: 'Drop and Recovery Scanner over the favourites (failed symbols listed, never fatal)', body: dropScanRequest, response: dropScanResponse },
  { method: 'get', path: '/api/live', summary: 'Live updates, streamed as NDJSON until the client leaves: hello (connection_id), a heartbeat every 15 s, quotes of the symbols set with live_symbols, idea updates, this user\'s fired alerts', response: liveStreamEvent, responseType: 'ndjson', errors: [429], streamsUntilClosed: true },
  { method: 'post', path: '/api/live_symbols', summary: 'The symbols a live-update stream shows (replaces its set; at most 100)', body: liveSymbolsRequest, response: msgBody, errors: [403, 404] },
  { method: 'post', path: '/api/scan/options', summary: 'Options Scanner over the favourites, streamed as NDJSON events: start, flag/skip + progress per symbol, end (no body)', response: optionScanEvent, responseType: 'ndjson' },
  { method: 'post', path: '/api/news-analysis', summary: 'AI analysis and summary of news text (cached 10 min per text; the analyst is AI_PROVIDER; at most ANALYSIS_MAX_PER_USER uncached analyses per ANALYSIS_WINDOW_SECONDS, 429 beyond)', body: newsAnalysisRequest, response: newsAnalysisResponse, errors: [429, 502] },
  { method: 'post', path: '/api/analyze-trump-news', summary: 'AI analysis and summary of Trump-related news text (cached and limited like news-analysis, in the same count)', body: trumpNewsAnalysisRequest, response: newsAnalysisResponse, errors: [429, 502] },
  { method: 'get', path: '/api/favorites/quotes', summary: 'Last price and day change of each favourite', response: favoriteQuotesResponse },
  { method: 'get', path: '/api/all_overall_sentiment', summary: "Overall market sentiment: the analyst's summaries of the latest market news, newest first (refreshed every 30 min while the market is open, hourly otherwise)", response: allOverallSentimentResponse },
  { method: 'get', path: '/api/sector_sentiment_scanner', summary: "Sector sentiment: each GICS sector's latest news (ValueRawJson, JSON text) and summary (refreshed hourly)", response: sectorSentimentResponse },
  { method: 'get', path: '/api/top_economic_indicators', summary: 'Key economic indicators: latest values (ValueRawJson, JSON text, newest first) and what the latest change means (refreshed every 6 h)', response: economicIndicatorsResponse },
  {
    method: 'get',
    path: '/api/all_stocks_scanner',
    summary:
      'Long-term layered plans, newest first: live ideas of every rule version and replayed ideas of the current one (Origin says which). No parameter: the first 100; filters optional; the next page\'s cursor in the X-Next-Cursor header',
    query: ideaListQuery,
    response: z.array(layeredTrade),
  },
  {
    method: 'get',
    path: '/api/get_swing_trade_entries',
    summary: "Short-term (swing) trades, newest first, as all_stocks_scanner (type filters trend, drop, level, each optionally with the one status wanted of it: trend:active,drop:successful); the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: z.array(swingTrade),
  },
  {
    method: 'get',
    path: '/api/get_combined_options_data',
    summary:
      "Option trades (OPTION_ALERT underlyings: a ~35-DTE, |Δ| ≈ 0.45 contract, +30 % target, −50 % stop), ProfitPercent descending; status active, successful, failed; no parameter: the first 100; the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: optionTradesResponse,
  },
  {
    method: 'get',
    path: '/api/get_stock_scanner_data',
    summary:
      "Drop scanner items (S short-term and L long-term on the Best of S&P 500, O a CALL on the OPTION_ALERT underlyings), newest first; status active, deactivated; type S, L, O, each optionally with the one status wanted of it (S,L:deactivated); the next page's cursor in the X-Next-Cursor header",
    query: ideaListQuery,
    response: dropItemsResponse,
  },
  {
    method: 'get',
    path: '/api/all_crypto_scanner',
    summary:
      "Crypto Scanner: one row per coin of the source's crypto universe (docs/rules/crypto.md §3), by Symbol: fields on the last completed UTC candle, the three hysteresis signals, news sentiment; IsNew when a signal changed in the last 24 h; Unavailable says why a field shows its default. No parameter: every coin; optional symbol (contains), signal (Buy, Sell, Hold) and horizon (Short, Medium, Long)",
    query: cryptoScannerQuery,
    response: cryptoTradesResponse,
  },
  {
    method: 'get',
    path: '/api/crypto_scorecard',
    summary:
      'The crypto signal scorecard (docs/rules/crypto.md §3.4): per rule version, origin, horizon and label, the 7-, 30- and 90-day forward returns of the label changes dated in [from, to] (UTC days; Sell scored with the sign flipped) with N, mean and its bootstrap interval, median, share positive, the baseline over every day of the window and BTC over the same windows',
    query: cryptoScorecardQuery,
    response: cryptoScorecardResponse,
  },
  {
    method: 'get',
    path: '/api/trade_ideas/{engine}/track_record',
    summary: "An engine's track record (per type, origin and rule version: mature cohorts, all closed, open, voided, random-entry baseline, SPY), scoped by CreatedAt and symbol",
    params: z.object({ engine: tradeEngine }),
    query: trackRecordQuery,
    response: trackRecord,
    errors: [404, 502, 503],
  },
  { method: 'get', path: '/api/trade_ideas/replay_status', summary: "Per engine, the history replay of its current rule version (pending, running with progress, done or failed)", response: replayStatusResponse },
  {
    method: 'get',
    path: '/api/trade_ideas/{engine}/{id}',
    summary: "An idea's row, its event log (oldest first) and its daily bars from ~60 sessions before the signal to the exit (or today)",
    params: z.object({ engine: tradeEngine, id: singleLineText('id', { max: 200, examples: ['swing.AAPL.2026-03-02@1.0.0'] }) }),
    response: ideaDetail,
    errors: [404, 502, 503],
  },
  { method: 'get', path: '/api/get_user_option_alerts', summary: "The signed-in user's saved option alerts (option trade ids), oldest first", response: getUserOptionAlertsResponse },
  {
    method: 'post',
    path: '/api/save_user_option_alerts',
    summary: "Replace the signed-in user's saved option alerts with these option trades (an empty list clears them); ids of unknown or closed trades are left out and listed in `dropped`",
    body: saveUserOptionAlertsRequest,
    response: saveUserOptionAlertsResponse,
  },
  { method: 'get', path: '/api/get_user_stock_scanner_alerts', summary: "The signed-in user's saved drop alerts (stock_id, trade_type), oldest first", response: getUserStockScannerAlertsResponse },
  {
    method: 'post',
    path: '/api/save_user_stock_scanner_alerts',
    summary: "Replace the signed-in user's saved drop alerts with these drop items (an empty list clears them); unknown or deactivated items, or a trade_type that is not the item's StockType, are left out and listed in `dropped`",
    body: saveUserStockScannerAlertsRequest,
    response: saveUserStockScannerAlertsResponse,
  },
  {
    method: 'post',
    path: '/api/send_verification_code',
    summary:
      'Send a 6-digit verification code (valid 10 minutes) by SMS to this E.164 number; at most 3 codes per number per 10 minutes, 10 per user, VERIFICATION_MAX_PER_ADDRESS_PER_DAY per client address and VERIFICATION_MAX_PER_DAY for the installation per 24 hours, and within the daily SMS budget (429 beyond); only to the calling codes of SMS_ALLOWED_COUNTRIES (400 otherwise)',
    body: sendVerificationCodeRequest,
    response: sendVerificationCodeResponse,
    errors: [429, 502],
  },
  {
    method: 'post',
    path: '/api/verify_code',
    summary: "Check the code sent to this number (at most 5 checks per code); when it is right the number becomes the signed-in user's phone for SMS alerts",
    body: verifyCodeRequest,
    response: verifyCodeResponse,
    errors: [429, 502],
  },
  { method: 'get', path: '/api/get_user_phone_number', summary: "The signed-in user's verified phone number and whether SMS is on, or {} when none is on file", response: getUserPhoneNumberResponse },
  {
    method: 'post',
    path: '/api/save_alert_preferences',
    summary: "Save the signed-in user's rule of one alert type (one per type): at most 10 symbols from the type's choice (favourites, the six coins, the option tickers, the news categories or keywords; none for the two drop types), the Percent Drop threshold 1-100, a target per symbol for Current Price and Cryptocurrency (0 < price <= 1,000,000); SMS needs a verified phone number",
    body: saveAlertPreferencesRequest,
    response: saveAlertPreferencesResponse,
  },
  { method: 'post', path: '/api/get_user_alert_rules', summary: "The signed-in user's rule of this alert type, or { data: null } when there is none", body: getUserAlertRulesRequest, response: getUserAlertRulesResponse },
  { method: 'get', path: '/api/get_alert_delivery_settings', summary: "The signed-in user's alert delivery settings (time zone, quiet hours per channel, pause) and each channel's last successful delivery; the defaults with saved false when none were saved", response: getAlertDeliverySettingsResponse },
  { method: 'post', path: '/api/resume_alert_email', summary: 'Turn alert e-mails on again after an unsubscribe from all or a permanent error; answers the delivery settings', response: resumeAlertEmailResponse },
  { method: 'post', path: '/api/save_alert_delivery_settings', summary: "Save the signed-in user's alert delivery settings (IANA time zone, SMS and e-mail quiet hours as HH:MM, pause all alerts)", body: saveAlertDeliverySettingsRequest, response: saveAlertDeliverySettingsResponse },
  {
    method: 'post',
    path: '/api/send_test_alert',
    summary:
      "Send a test alert through the SMS provider (to the verified number) or the mail provider (to the account's address), answering the provider's answer and each channel's last successful delivery; at most TEST_ALERT_MAX_PER_HOUR per channel per hour and, for SMS, within the daily SMS budget (429 beyond)",
    body: sendTestAlertRequest,
    response: sendTestAlertResponse,
    errors: [429, 502],
  },
  {
    method: 'post',
    path: '/api/get_alert_history',
    summary:
      "The signed-in user's fired alerts, newest first: the rule as it was, the data that fired it (price, source, as-of), each channel's delivery with its status, reason and status steps; filters alert_type, symbol (contains), from/to (days, inclusive, in time_zone, default America/New_York); page (from 1) and limit (1-200, default 50); `next` is the next page when there is one",
    body: alertHistoryQuery,
    response: getAlertHistoryResponse,
  },
  {
    method: 'get',
    path: '/api/alert_history.csv',
    summary:
      "The signed-in user's alert history as CSV (text/csv, attachment alert-history-YYYY-MM-DD.csv): the same filters as get_alert_history (page and limit ignored; at most 10,000 alerts), one line per delivery (an alert without deliveries: one line, channel columns empty); columns fired_at, alert_type, type_name, symbol, message, price, source, as_of, channel, status, status_text, reason, reason_text, attempts, possibly_duplicate, steps; a cell starting with = + - @ gets a leading apostrophe",
    query: alertHistoryQuery,
    response: z.string(),
    responseType: 'csv',
  },
  { method: 'get', path: '/api/market_overview', summary: 'Market status, the index ETFs and Bitcoin, and the sector ETFs\' moves today (instruments the source lacks are left out; failures listed)', response: marketOverviewResponse },
  // Alert delivery's open routes, each with its own check (alerts/delivery/delivery.routes.ts).
  { method: 'post', path: '/api/twilio/status', summary: "Twilio's status callback (X-Twilio-Signature over PUBLIC_URL + path; 403 when it does not match, 404 without TWILIO_AUTH_TOKEN): sent → delivered | failed", open: true, body: twilioStatusCallback, bodyType: 'form', response: z.string(), responseType: 'xml', errors: [403, 404] },
  { method: 'post', path: '/api/twilio/inbound', summary: "Twilio's inbound SMS webhook (signed as above): STOP opts out of SMS alerts, START back in, HELP answers how; answers TwiML", open: true, body: twilioInboundMessage, bodyType: 'form', response: z.string(), responseType: 'xml', errors: [403, 404] },
  { method: 'get', path: '/api/alerts/unsubscribe', summary: 'The e-mail unsubscribe link (a signed token, 30 days): a page with a confirm button, no sign-in', open: true, query: unsubscribeQuery, response: z.string(), responseType: 'html' },
  { method: 'post', path: '/api/alerts/unsubscribe', summary: 'One-click unsubscribe (RFC 8058): from one rule\'s e-mails or from all alert e-mails, as the token says', open: true, query: unsubscribeQuery, body: unsubscribeOneClickBody, bodyType: 'form', response: z.string(), responseType: 'html' },
];

/** What each error status means here; every one answers `{ msg }` (errorBody). */
const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad input: `msg` says what is wrong',
  401: 'Auth token missing, invalid or expired (login: wrong e-mail or password)',
  403: 'The account is deactivated',
  404: 'Unknown symbol, a listed symbol with no price history, or no such idea',
  413: 'The request body, attachment or text to analyse is too large',
  415: 'Unsupported content type',
  429: 'Too many attempts, codes or costly calls; `retry-after` says when to try again where it is known',
  502: 'The upstream provider (market data, mail, SMS, AI analyst) failed or timed out and nothing is cached',
  503: 'No configured source provides this data (`msg` names the setting to add), or the server is busy (`retry-after` says when to try again)',
};

/** Every error status `op` can answer, ascending: its kind's, plus its own. */
export function errorStatuses(op: Operation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors ?? []);
  if (op.query || op.params || op.body || op.method === 'post') statuses.add(400); // a POST may carry a malformed body
  if (!op.open) statuses.add(401);
  if (op.method === 'post') {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

const RESPONSE_MEDIA_TYPES = { json: 'application/json', ndjson: 'application/x-ndjson', csv: 'text/csv', html: 'text/html', xml: 'text/xml' } as const;

const jsonSchema = (schema: ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = jsonSchema(errorBody, 'output');
  const error = (status: ErrorStatus) => ({ description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: errorSchema } } });
  for (const op of OPERATIONS) {
    const parameters = op.query
      ? Object.entries((jsonSchema(op.query, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((jsonSchema(op.query!, 'input').required ?? []) as string[]).includes(name),
          schema,
        }))
      : undefined;
    const pathParameters = op.params
      ? Object.entries((jsonSchema(op.params, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'path', required: true, schema }))
      : [];
    const allParameters = [...pathParameters, ...(parameters ?? [])];
    const mediaType = op.bodyType === 'multipart' ? 'multipart/form-data' : op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const content = op.bodyType === 'form' ? { [mediaType]: { schema: jsonSchema(op.body!, 'input') }, 'multipart/form-data': { schema: jsonSchema(op.body!, 'input') } } : op.body ? { [mediaType]: { schema: jsonSchema(op.body, 'input') } } : undefined;
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        summary: op.summary,
        security: op.open ? [] : [{ bearer: [] }],
        ...(op.changesAccount ? { 'x-changes-account': true } : {}),
        ...(op.streamsUntilClosed ? { 'x-streams-until-closed': true } : {}),
        ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
        ...(content ? { requestBody: { required: true, content } } : {}),
        responses: {
          200: { description: 'OK', content: { [RESPONSE_MEDIA_TYPES[op.responseType ?? 'json']]: { schema: jsonSchema(op.response, 'output') } } },
          ...Object.fromEntries(errorStatuses(op).map((status) => [status, error(status)])),
          ...(op.alsoAnswers ? { [op.alsoAnswers.status]: { description: op.alsoAnswers.description, content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } } } : {}),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Signalboard API', version: APP_VERSION, description: 'Errors answer JSON with a `msg` (and `error` where the spec says so).' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

export async function docsRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument();
  app.get('/docs', async () => document);
}
