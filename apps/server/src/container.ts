/**
 * The service container: every repo, service, store and job of an installation, built once from the
 * runtime's dependencies (runtime.ts `appDeps`). The HTTP app (app.ts) registers its routes on these;
 * the worker (worker.ts) runs the queued jobs on them with no HTTP app at all; tests build either.
 * Nothing here knows about HTTP: a request-facing part (the sign-in limits, the costly-call limits)
 * is built here because it is state every route shares, and used by the routes.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CustomFetch } from 'openid-client';
import type pg from 'pg';
import { ALERT_STALE_REFRESHES, type EngineId, type UniverseMember } from '@signalboard/core';
import type { Config } from './config';
import type { Database } from './db/client';
import { createWebhookLane } from './features/alerts/channels/webhook-lane';
import { createWebhooksRepo } from './features/alerts/channels/webhooks.repo';
import { createWebhooksService } from './features/alerts/channels/webhooks.service';
import { createAlertDelivery } from './features/alerts/delivery/delivery';
import type { NewAlert } from './features/alerts/evaluation/alert-store';
import { createAlertEvaluation, LOCAL_POLL_MS, SOURCE_LABELS } from './features/alerts/evaluation/evaluation';
import { createIntradayScanAlerts } from './features/alerts/evaluation/scan-intraday.evaluator';
import { createScanAlertJobs } from './features/alerts/evaluation/scan.evaluator';
import { createAlertHistoryRepo } from './features/alerts/history/history.repo';
import { createAlertHistoryService } from './features/alerts/history/history.service';
import { createAlertRulesRepo } from './features/alerts/rules/rules.repo';
import { createAlertRulesService } from './features/alerts/rules/rules.service';
import { createAuthService } from './features/auth/auth.service';
import { createSessionUsers } from './features/auth/session-users';
import { createAdminService } from './features/admin/admin.service';
import { createInvitationsRepo } from './features/auth/invitations.repo';
import { createInvitationsService, INVITATIONS_MAX_PER_ADMIN } from './features/auth/invitations.service';
import { createAuditRepo } from './features/admin/audit.repo';
import { createImportedPricesRepo } from './features/data-import/imported-prices.repo';
import { createPriceImportService } from './features/data-import/price-import.service';
import { createSessionsRepo } from './features/auth/sessions.repo';
import { createUsersRepo } from './features/auth/users.repo';
import { createTwoFactorRepo } from './features/two-factor/two-factor.repo';
import { createTwoFactorService } from './features/two-factor/two-factor.service';
import { createSingleSignOn } from './features/oidc/single-sign-on';
import { createDashboardJobs } from './features/dashboard/dashboard.jobs';
import { createDashboardRepo } from './features/dashboard/dashboard.repo';
import { createScanBacktests } from './features/custom-scans/backtest.job';
import { createBacktestRepo } from './features/custom-scans/backtest.repo';
import { createScanRunService } from './features/custom-scans/scan-run.service';
import { scanUniverseMembers } from './features/custom-scans/scan-universe';
import { createDropScannerService } from './features/drop-scanner/drop-scanner.service';
import { createFavoriteQuotesService } from './features/watchlist/favorite-quotes.service';
import { createWatchlistImportService } from './features/watchlist/watchlist-import.service';
import { createFavoritesRepo } from './features/watchlist/watchlist.repo';
import { createReadiness, defaultReadinessChecks, mergeChecks, type ReadinessCheck } from './features/health/readiness';
import { createInProcessBus } from './features/live/live-bus';
import { createLiveHub } from './features/live/live-hub';
import { createLiveQuotes } from './features/live/live-quotes';
import { createMemoryRegistry, createRedisRegistry } from './features/live/live-registry';
import { createMarketService } from './features/market/market.service';
import { createNewsAnalysisService } from './features/news/news-analysis.service';
import { createOptionSignalsService } from './features/option-signals/option-signals.service';
import { createPhoneService } from './features/alerts/phone/phone.service';
import { SERVER_TRADE_ENGINES } from './features/trades/engines';
import { createTradeJobs } from './features/trades/trades.jobs';
import { createTrackRecords } from './features/trades/trades.record';
import { createTradesRepo } from './features/trades/trades.repo';
import type { AnyEngine } from './features/trades/trades.types';
import { createJobRuns } from './jobs/job-runs';
import { createJobRegistry } from './jobs/registry';
import type { QueuedWork } from './jobs/tasks';
import { createMemoryStore, type CacheStore } from './lib/cache-store';
import { systemClock, type Clock } from './lib/clock';
import { NO_FOREGROUND, type Foreground } from './lib/foreground';
import type { LiveBus } from './lib/live-bus';
import { enforce, RateLimiter } from './lib/rate-limiter';
import { createDbRateLimiter, createUsageCounters } from './lib/usage-counter';
import { createCostlyCallLimits, createUserLimit } from './lib/user-limit';
import type { Resolver } from './lib/outbound/url-guard';
import { createSecretBox, derivedSecretBoxKey } from './lib/secret-box';
import { vapidSubject } from './lib/webpush/subject';
import { generateVapidKeys, type VapidKeys } from './lib/webpush/vapid';
import type { TelegramBotApi } from './features/alerts/channels/telegram/bot-api';
import { createTelegramService } from './features/alerts/channels/telegram/telegram.service';
import { createTokens } from './lib/tokens';
import { createAnalyst, type Analyst } from './providers/ai';
import type { Mailer } from './providers/mail';
import type { CachedMarket } from './providers/market/cached-market';
import { createSms, guardSms, type Sms } from './providers/sms';

export interface ContainerDeps {
  config: Config;
  db: Database;
  /** The pool behind `db`; one of its connections listens for account changes. */
  pool: pg.Pool;
  mailer: Mailer;
  /** The SMS provider (default: the one SMS_PROVIDER names, createSms). */
  sms?: Sms;
  /**
   * Shared state (rate limits, the news-analysis cache): runtime.ts's store, on Redis when
   * REDIS_URL is set; default a memory store of this container's own. Its owner (runtime.ts) closes it.
   */
  store?: CacheStore;
  /** Market data behind its cache (createMarket), and the clock it runs on. */
  market: CachedMarket;
  marketClock: Clock;
  /** The news analyst (createAnalyst); default: the one AI_PROVIDER names. */
  analyst?: Analyst;
  jwtSecret: string;
  /**
   * Seals stored channel secrets (lib/secret-box.ts): runtime.ts passes ENCRYPTION_KEY or DATA_DIR/encryption-key;
   * default (tests, tools) a key derived from jwtSecret.
   */
  encryptionKey?: Buffer;
  /** DNS for the URLs users give (webhooks); tests pass their own. */
  outboundResolver?: Resolver;
  /** Browser push: runtime.ts passes VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY or DATA_DIR/vapid-keys.json; default (tests, tools) a pair made for this container. */
  vapidKeys?: VapidKeys;
  /** Telegram's Bot API (tests pass the fake's client); default one for TELEGRAM_BOT_TOKEN, none without it. */
  telegramApi?: TelegramBotApi;
  /** Single sign-on: every request to the provider (tests put a proxy here); default fetch. */
  oidcFetch?: CustomFetch;
  clock?: Clock;
  /** The trade engines (default: SERVER_TRADE_ENGINES); tests pass their own. */
  tradeEngines?: readonly AnyEngine[];
  /** The engines' universe (default: the source's S&P 500 members); tests pass a small one. */
  tradeUniverse?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
  /** Readiness checks besides the defaults (database, redis, market_data, mail, sms), e.g. the queues; a same-named one replaces a default. */
  readinessChecks?: readonly ReadinessCheck[];
  /** REDIS_URL: work that runs on the workers (jobs/tasks.ts): the delivery kick, the first dashboard fill. */
  queued?: QueuedWork;
  /** The live-update bus (default: in-process); runtime.ts passes the Redis one when REDIS_URL is set and closes it. */
  bus?: LiveBus;
  /** Tests only (TEST_CONTROL_FILE's holdJobs): holds a registry job after its claim (jobs/registry.ts JobRunnerDeps.hold). */
  holdJob?: (job: string) => Promise<void>;
}

export interface ContainerOptions {
  /** The process's logger (the HTTP app's, or the worker's own). */
  log: FastifyBaseLogger;
  /** The requests under way, which the replays give way to (the HTTP app's; a worker serves none). */
  foreground?: Foreground;
}

/** Builds every service of an installation; `start()` then opens what listens (the account changes). */
export function createContainer(deps: ContainerDeps, options: ContainerOptions) {
  const { config, db, mailer } = deps;
  const { log } = options;
  const clock = deps.clock ?? systemClock;
  const jobLog = { info: (message: string) => log.info(message), warn: (message: string) => log.warn(message) };

  const users = createUsersRepo(db);
  const favorites = createFavoritesRepo(db);
  const sessions = createSessionsRepo(db);
  const auth = createAuthService({ users, sessions, mailer, clock });
  const audit = createAuditRepo(db);
  const invitations = createInvitationsService({ invitations: createInvitationsRepo(db), users, audit, mailer, clock, publicUrl: config.PUBLIC_URL });
  const tokens = createTokens({ secret: deps.jwtSecret, ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS });
  const windowMs = (seconds: number) => seconds * 1000;
  // On Redis the sign-in and reset limits hold across every API process (phone verification counts in the database).
  const store = deps.store ?? createMemoryStore();
  const limiters = {
    loginByEmail: new RateLimiter(config.LOGIN_MAX_PER_EMAIL, windowMs(config.LOGIN_WINDOW_SECONDS), clock, { store, name: 'login-email' }),
    loginByAddress: new RateLimiter(config.LOGIN_MAX_PER_ADDRESS, windowMs(config.LOGIN_WINDOW_SECONDS), clock, { store, name: 'login-address' }),
    forgotByEmail: new RateLimiter(config.FORGOT_PASSWORD_MAX_PER_EMAIL, windowMs(config.FORGOT_PASSWORD_WINDOW_SECONDS), clock, { store, name: 'forgot-email' }),
    forgotByAddress: new RateLimiter(config.FORGOT_PASSWORD_MAX_PER_ADDRESS, windowMs(config.FORGOT_PASSWORD_WINDOW_SECONDS), clock, { store, name: 'forgot-address' }),
  };
  // Per-user limits of the calls that cost money, mail or CPU (analysis, support, password change).
  const userLimits = createCostlyCallLimits(config, clock, store);

  // The outbox's code hashes are keyed by a key derived from the JWT secret (never the secret itself).
  const provider = deps.sms ?? createSms(config, db, clock, createHmac('sha256', deps.jwtSecret).update('signalboard sms verification codes').digest('hex'));
  // Every SMS passes the allowed countries and the installation's daily budget (providers/sms/guard.ts).
  const sms = guardSms(provider, { db, clock, dailyLimit: config.SMS_DAILY_LIMIT, allowedCountries: config.SMS_ALLOWED_COUNTRIES, log: { warn: (message) => log.warn(message) } });
  // Channel secrets sealed at rest; webhooks go out on a lane of their own beside SMS and e-mail.
  const box = createSecretBox(deps.encryptionKey ?? derivedSecretBoxKey(deps.jwtSecret));
  const resolver = deps.outboundResolver ? { resolve: deps.outboundResolver } : {};
  // Telegram (the admin's bot) and browser push (the installation's VAPID keys) go out on the same lane.
  const telegram = createTelegramService({ db, box, clock, config, log: jobLog, ...(deps.telegramApi ? { api: deps.telegramApi } : {}) });
  const push = { vapid: deps.vapidKeys ?? generateVapidKeys(), subject: vapidSubject(config) };
  const channels = { telegram: telegram.api, push, ...resolver };
  const webhookLane = createWebhookLane({ db, box, mailer, clock, config, log: jobLog, ...channels });
  const alertDelivery = createAlertDelivery({ db, sms, mailer, clock, config, log: jobLog, jwtSecret: deps.jwtSecret, webhooks: webhookLane });
  // Two-factor sign-in: the TOTP keys sealed with the same box.
  const twoFactor = createTwoFactorService({ repo: createTwoFactorRepo(db), sessions, box, clock });
  // Single sign-on with OIDC_ISSUER's provider (features/oidc).
  const oidc = createSingleSignOn(config, { db, users, invitations, favorites, audit, store, clock, log: jobLog, ...(deps.oidcFetch ? { fetch: deps.oidcFetch } : {}) });
  const singleSignOn = { linkedUserIds: () => oidc.linkedUserIds(), passwordForm: oidc.passwordForm };
  const admin = createAdminService({ db, users, sessions, auth, audit, clock, limitReset: (email) => enforce([limiters.forgotByEmail], [email], 'password reset'), singleSignOn });
  // Imported daily price files (docs/data-in-and-out.md), served by the market's imported layer.
  const priceImport = createPriceImportService({ repo: createImportedPricesRepo(db), market: deps.market, audit, now: () => new Date(clock.nowMs()), marketClock: deps.marketClock });
  // Codes checked behind the token (turning two-factor on or off, new recovery codes) are guesses
  // too: as many per account as sign-in attempts per e-mail.
  const twoFactorCodeLimit = createUserLimit({
    name: 'two-factor-code-user',
    what: 'two-factor codes',
    max: config.LOGIN_MAX_PER_EMAIL,
    windowSeconds: config.LOGIN_WINDOW_SECONDS,
    clock,
    store,
  });
  // Each invitation (or resend) is a mail to someone else's address: an admin sends at most 50 an hour.
  const invitationLimit = createUserLimit({ name: 'invitation-admin', what: 'invitations', max: INVITATIONS_MAX_PER_ADMIN, windowSeconds: 3600, clock, store });
  const webhooks = createWebhooksService({ repo: createWebhooksRepo(db), box, clock, store, config, ...channels });

  const defaultChecks = defaultReadinessChecks({ config, pool: deps.pool, mailKind: mailer.kind, smsKind: sms.kind, smsBudget: () => sms.budgetState() });
  const readiness = createReadiness(mergeChecks(defaultChecks.checks, deps.readinessChecks ?? []), { onClose: defaultChecks.close });

  const sessionUsers = createSessionUsers({ sessions, pool: deps.pool, clock, log });
  const analyst = deps.analyst ?? createAnalyst(config);
  const dashboardRepo = createDashboardRepo(db);
  const runs = createJobRuns(db);
  // The live-update bus: idea updates and fired alerts are published on it (features/live).
  const ownBus = !deps.bus;
  const bus = deps.bus ?? createInProcessBus(jobLog);
  const dashboardJobs = createDashboardJobs({
    repo: dashboardRepo,
    runs,
    market: deps.market,
    analyst,
    marketClock: deps.marketClock,
    clock,
    log: jobLog,
    ...(deps.holdJob ? { hold: deps.holdJob } : {}),
  });
  const tradesRepo = createTradesRepo(db);
  const tradeJobs = createTradeJobs({
    engines: deps.tradeEngines ?? SERVER_TRADE_ENGINES,
    repo: tradesRepo,
    runs,
    market: deps.market,
    marketClock: deps.marketClock,
    clock,
    log: jobLog,
    ...(deps.tradeUniverse ? { universe: deps.tradeUniverse } : {}),
    ideasChanged: (engine) => void bus.publish({ type: 'ideas', engine, at: clock.nowMs() }),
    ...(deps.queued ? { queueReplay: deps.queued.replay } : {}),
    ...(deps.holdJob ? { hold: deps.holdJob } : {}),
    foreground: options.foreground ?? NO_FOREGROUND,
  });
  // Live updates (features/live): the streams this process holds, fed by the bus.
  const liveRegistry = config.REDIS_URL ? createRedisRegistry({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, clock) : createMemoryRegistry(clock);
  const liveHub = createLiveHub({ bus, registry: liveRegistry, clock, log: jobLog, users: sessionUsers });
  const liveQuotes = createLiveQuotes({ market: deps.market, bus, registry: liveRegistry, log: jobLog });
  const publishAlert = (alert: NewAlert) =>
    void bus.publish({ type: 'alert', userId: alert.userId, alertType: alert.alertType, symbol: alert.symbol === '*' ? null : alert.symbol, message: alert.smsText, at: alert.firedAt.getTime() });
  // Custom Scan alerts during the session: the price-only scans on the quote poller's cadence (docs/custom-scans.md).
  const intradayScans = createIntradayScanAlerts({
    db,
    market: deps.market,
    universe: (universe, userId) => scanUniverseMembers(universe, { market: deps.market, favorites }, userId),
    marketClock: deps.marketClock,
    clock,
    source: SOURCE_LABELS[deps.market.source],
    // Stale as a price rule's quote is: older than two polls (docs/rules/alerts.md §1.6).
    maxQuoteAgeMs: ALERT_STALE_REFRESHES * (config.ALERT_POLL_SECONDS ? config.ALERT_POLL_SECONDS * 1000 : LOCAL_POLL_MS),
    log: jobLog,
    foreground: options.foreground ?? NO_FOREGROUND,
    delivery: deps.queued ? { kick: deps.queued.kickDelivery } : alertDelivery,
    alertCommitted: publishAlert,
  });
  const alertEvaluation = createAlertEvaluation({
    db,
    market: deps.market,
    marketClock: deps.marketClock,
    clock,
    ...(config.ALERT_POLL_SECONDS ? { pollSeconds: config.ALERT_POLL_SECONDS } : {}),
    delivery: deps.queued ? { kick: deps.queued.kickDelivery } : alertDelivery,
    alertCommitted: publishAlert,
    intradayScans,
    log: jobLog,
  });
  // Custom Scan alerts: after each daily pass, the new matches of the saved scans rules watch.
  const scanAlertJobs = createScanAlertJobs({
    db,
    runScan: createScanRunService({ market: deps.market, marketClock: deps.marketClock, favorites }).run,
    marketClock: deps.marketClock,
    clock,
    source: SOURCE_LABELS[deps.market.source],
    runs,
    log: jobLog,
    delivery: deps.queued ? { kick: deps.queued.kickDelivery } : alertDelivery,
    alertCommitted: (alert) =>
      void bus.publish({ type: 'alert', userId: alert.userId, alertType: alert.alertType, symbol: alert.symbol, message: alert.smsText, at: alert.firedAt.getTime() }),
    ...(deps.holdJob ? { hold: deps.holdJob } : {}),
  });
  const jobs = createJobRegistry([dashboardJobs, tradeJobs, scanAlertJobs]);

  const phone = createPhoneService({ db, sms, clock, log, limits: { perAddressPerDay: config.VERIFICATION_MAX_PER_ADDRESS_PER_DAY, perDay: config.VERIFICATION_MAX_PER_DAY } });
  // Test sends per user and channel per hour, counted in the database (shared by every process).
  const testSends = createDbRateLimiter(createUsageCounters(db), { name: 'test-alert', max: config.TEST_ALERT_MAX_PER_HOUR, windowMs: 3_600_000, clock });
  const alertRules = createAlertRulesService({ repo: createAlertRulesRepo(db), sms, mailer, clock, log, testSends });
  const alertHistory = createAlertHistoryService({ repo: createAlertHistoryRepo(db) });
  const marketService = createMarketService(deps.market, deps.marketClock);
  // The favourites' batch calls (packages/core/src/contract/scans.ts), each on the market service.
  const dropScanner = createDropScannerService({ favorites, market: marketService, clock: deps.marketClock, log });
  const optionSignals = createOptionSignalsService({ favorites, market: marketService, sentiment: deps.market, clock: deps.marketClock, log });
  const favoriteQuotes = createFavoriteQuotesService({ favorites, market: marketService, log });
  // The WatchList's import preview and export (exact listings from the symbol lookup).
  const watchlistImport = createWatchlistImportService({ favorites, market: deps.market });
  const newsAnalysis = createNewsAnalysisService({ analyst, clock, ttlMs: config.AI_CACHE_TTL_SECONDS * 1000, store });
  // The saved scans' backtests (features/custom-scans/backtest.job.ts): in this process's background, or on a worker with REDIS_URL.
  const scanBacktests = createScanBacktests({
    repo: createBacktestRepo(db),
    market: deps.market,
    marketClock: deps.marketClock,
    favorites,
    log,
    foreground: options.foreground ?? NO_FOREGROUND,
    // At most this many at once in this process (the API's without REDIS_URL; a worker's takes as many from the queue).
    maxConcurrent: config.SCAN_BACKTEST_MAX_CONCURRENT,
    ...(deps.queued ? { enqueue: deps.queued.backtest } : {}),
  });
  const records = createTrackRecords({ repo: tradesRepo, market: deps.market, marketClock: deps.marketClock, ...(deps.tradeUniverse ? { universe: deps.tradeUniverse } : {}) });

  /** Ends the live streams (an open stream would hold an HTTP server's close up); once, however often asked. */
  let streamsClosed: Promise<void> | undefined;
  function closeStreams(): Promise<void> {
    streamsClosed ??= (async () => {
      await liveQuotes.stop();
      await liveHub.close();
    })();
    return streamsClosed;
  }
  /** The live registry, and the bus when it is this container's own (runtime.ts closes one it passed). */
  async function closeLive(): Promise<void> {
    await liveRegistry.close();
    if (ownBus) await bus.close();
  }

  return {
    clock,
    store,
    users,
    favorites,
    auth,
    audit,
    admin,
    priceImport,
    invitations,
    twoFactor,
    twoFactorCodeLimit,
    invitationLimit,
    oidc,
    tokens,
    limiters,
    userLimits,
    sms,
    alertDelivery,
    readiness,
    sessionUsers,
    analyst,
    dashboardRepo,
    dashboardJobs,
    tradesRepo,
    tradeJobs,
    jobs,
    bus,
    liveRegistry,
    liveHub,
    liveQuotes,
    alertEvaluation,
    phone,
    alertRules,
    alertHistory,
    webhooks,
    telegram,
    marketService,
    dropScanner,
    optionSignals,
    favoriteQuotes,
    watchlistImport,
    newsAnalysis,
    records,
    scanBacktests,
    /** Opens what listens: the account changes (a deactivated user's token stops at once). */
    async start(): Promise<void> {
      await sessionUsers.start();
    },
    closeStreams,
    /**
     * Everything, in one order for every process: the timers and the replays stop, then the streams
     * (already ended when an HTTP app closed them before its server), then what holds connections.
     * The worker calls it; the HTTP app calls it from its onClose hook (app.ts).
     */
    async close(): Promise<void> {
      await telegram.stop();
      await alertEvaluation.stop();
      await tradeJobs.stop();
      await scanBacktests.stop();
      await closeStreams();
      await alertDelivery.stop();
      await readiness.close();
      await sessionUsers.close();
      await closeLive();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
