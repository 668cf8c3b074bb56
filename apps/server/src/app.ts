import { createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type pg from 'pg';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { SUPPORT_ATTACHMENT_MAX_BYTES, type EngineId, type UniverseMember } from '@signalboard/core';
import type { Config } from './config';
import type { Database } from './db/client';
import { isDatabaseUnavailable } from './db/errors';
import { httpTimeouts } from './lib/http-timeouts';
import { createAuthService } from './features/auth/auth.service';
import { createSessionUsers } from './features/auth/session-users';
import { protectedAuthRoutes, publicAuthRoutes } from './features/auth/auth.routes';
import { createUsersRepo } from './features/auth/users.repo';
import { createFavoritesRepo } from './features/favorites/favorites.repo';
import { favoritesRoutes } from './features/favorites/favorites.routes';
import { createDashboardJobs, type DashboardJobs } from './features/dashboard/dashboard.jobs';
import { createDashboardRepo } from './features/dashboard/dashboard.repo';
import { SERVER_TRADE_ENGINES } from './features/trades/engines';
import { createTradeJobs, type TradeJobs } from './features/trades/trades.jobs';
import { trackForeground } from './lib/foreground';
import { createTrackRecords } from './features/trades/trades.record';
import { createTradesRepo } from './features/trades/trades.repo';
import { tradesRoutes } from './features/trades/trades.routes';
import type { AnyEngine } from './features/trades/trades.types';
import { createJobRuns } from './jobs/job-runs';
import { createJobRegistry, type JobRegistry } from './jobs/registry';
import type { QueuedWork } from './jobs/tasks';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { docsRoutes } from './features/docs/openapi';
import { healthRoutes } from './features/health/health.routes';
import { createReadiness, defaultReadinessChecks, mergeChecks, type ReadinessCheck } from './features/health/readiness';
import { metricsRoutes, recordRequestDurations } from './features/metrics/metrics.routes';
import { robotsRoutes } from './features/robots/robots.routes';
import { marketRoutes } from './features/market/market.routes';
import { newsAnalysisRoutes } from './features/news/news-analysis.routes';
import { createNewsAnalysisService } from './features/news/news-analysis.service';
import { createMarketService, NoPriceHistoryError } from './features/market/market.service';
import { simulatedNewsRoutes } from './features/market/simulated-news.routes';
import { scansRoutes } from './features/scans/scans.routes';
import { createScansService } from './features/scans/scans.service';
import { supportRoutes } from './features/support/support.routes';
import { savedAlertsRoutes } from './features/saved-alerts/saved-alerts.routes';
import { phoneRoutes } from './features/phone/phone.routes';
import { createAlertRulesRepo } from './features/alert-rules/alert-rules.repo';
import { alertRulesRoutes } from './features/alert-rules/alert-rules.routes';
import { alertHistoryRoutes } from './features/alert-history/alert-history.routes';
import { createAlertHistoryRepo } from './features/alert-history/alert-history.repo';
import { createAlertHistoryService } from './features/alert-history/alert-history.service';
import { createAlertRulesService } from './features/alert-rules/alert-rules.service';
import { createPhoneService } from './features/phone/phone.service';
import { createAlertEvaluation, type AlertEvaluation } from './features/alert-evaluation/alert-evaluation';
import { createAlertDelivery, type AlertDelivery } from './features/alert-delivery/alert-delivery';
import { alertDeliveryRoutes } from './features/alert-delivery/alert-delivery.routes';
import { unsubscribeKeyOf } from './features/alert-delivery/unsubscribe-token';
import { createInProcessBus } from './features/live/live-bus';
import { createLiveHub } from './features/live/live-hub';
import { createLiveQuotes, type LiveQuotes } from './features/live/live-quotes';
import { createMemoryRegistry, createRedisRegistry } from './features/live/live-registry';
import { liveRoutes } from './features/live/live.routes';
import type { LiveBus } from './lib/live-bus';
import { systemClock, type Clock } from './lib/clock';
import { edgeErrorHandlers } from './lib/edge-errors';
import { HttpError } from './lib/errors';
import { createMemoryStore, type CacheStore } from './lib/cache-store';
import { RateLimiter } from './lib/rate-limiter';
import { createDbRateLimiter, createUsageCounters } from './lib/usage-counter';
import { createCostlyCallLimits } from './lib/user-limit';
import { isRedisUnavailable } from './lib/redis';
import { REQUEST_ID_HEADER, requestIdFromHeaders } from './lib/request-id';
import { lazyChildLoggerFactory } from './lib/request-logger';
import { createTokens } from './lib/tokens';
import { createAuthenticate } from './plugins/authenticate';
import { computeApiHeaders, computeSecurityHeaders } from './plugins/security-headers';
import { createAnalyst, type Analyst } from './providers/ai';
import type { Mailer } from './providers/mail';
import { createSms, guardSms, type Sms } from './providers/sms';
import type { CachedMarket } from './providers/market/cached-market';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError } from './providers/market/types';

export interface AppDeps {
  config: Config;
  db: Database;
  /** The pool behind `db`; one of its connections listens for account changes. */
  pool: pg.Pool;
  mailer: Mailer;
  /** The SMS provider (default: the one SMS_PROVIDER names, createSms). */
  sms?: Sms;
  /**
   * Shared state (rate limits, the news-analysis cache): runtime.ts's store, on Redis when
   * REDIS_URL is set; default a memory store of this app's own. Its owner (server.ts) closes it.
   */
  store?: CacheStore;
  /** Market data behind its cache (createMarket), and the clock it runs on. */
  market: CachedMarket;
  marketClock: Clock;
  /** The news analyst (createAnalyst); default: the one AI_PROVIDER names. */
  analyst?: Analyst;
  jwtSecret: string;
  clock?: Clock;
  /** The trade engines (default: SERVER_TRADE_ENGINES); tests pass their own. */
  tradeEngines?: readonly AnyEngine[];
  /** The engines' universe (default: the source's S&P 500 members); tests pass a small one. */
  tradeUniverse?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
  /** pino options, or false for no logs (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Readiness checks besides the defaults (database, redis, market_data, mail, sms), e.g. the queues; a same-named one replaces a default. */
  readinessChecks?: readonly ReadinessCheck[];
  /** REDIS_URL: work that runs on the workers (jobs/tasks.ts): the delivery kick, the first dashboard fill. */
  queued?: QueuedWork;
  /** The live-update bus (default: in-process); server.ts passes the Redis one when REDIS_URL is set and closes it. */
  bus?: LiveBus;
  /** Tests only (TEST_CONTROL_FILE's holdJobs): holds a registry job after its claim (jobs/registry.ts JobRunnerDeps.hold). */
  holdJob?: (job: string) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Waits for work started after an answer was sent (e.g. the reset e-mail). */
    drainBackgroundWork(): Promise<void>;
    /** The dashboard's refresh jobs; the server entry schedules them (tests call them directly). */
    dashboardJobs: DashboardJobs;
    /** The trade engines' replays, daily passes and marks. */
    tradeJobs: TradeJobs;
    /** Every scheduled job (the dashboard's and the engines'); the server entry's scheduler ticks it. */
    jobs: JobRegistry;
    /** The alert rules' evaluation (quote poller, idea events); the server entry starts its timer. */
    alertEvaluation: AlertEvaluation;
    /** The alert delivery worker; the server entry starts it (tests run passes with runOnce()). */
    alertDelivery: AlertDelivery;
    /** The live-quote publisher: a timer in one process (server.ts), a worker's schedule with Redis. */
    liveQuotes: LiveQuotes;
  }
}

const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** Hashed build assets (apps/web/dist/assets) never change under their name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Maps framework errors to `{ msg }` answers; anything unexpected is logged and answered 500. */
function toErrorAnswer(error: FastifyError): { status: number; msg: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, msg: `The request body is larger than ${JSON_BODY_LIMIT_BYTES / 1024} KB.` };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, msg: `The attachment is larger than ${SUPPORT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.` };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, msg: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, msg: 'The request body is empty; send a JSON object.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, msg: 'Unsupported content type; send application/json.' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, msg: 'The request is not multipart/form-data.' };
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return { status: error.statusCode, msg: error.message };
      }
      return undefined;
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, mailer } = deps;
  const clock = deps.clock ?? systemClock;
  const securityHeaders = computeSecurityHeaders({ hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS, imageOrigins: config.NEWS_IMAGE_ORIGINS });
  const apiHeaders = computeApiHeaders({ hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS });
  const app = Fastify({
    // Errors before any route runs (parser, routing) answer `{ msg }`, JSON like the API's answers,
    // with the API's security headers.
    ...edgeErrorHandlers(apiHeaders),
    logger:
      deps.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.new_password'],
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // No request, upload or idle socket is waited for without end (lib/http-timeouts.ts).
    ...httpTimeouts(config.UPLOAD_TIMEOUT_SECONDS),
    trustProxy: config.TRUST_PROXY ?? false, // request.ip: the client a TRUST_PROXY proxy names, else the socket's
    // A well-formed x-request-id from the proxy is kept (logs' reqId, the answer header, job data).
    genReqId: requestIdFromHeaders,
    // request.log is made on its first use at an enabled level (lib/request-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
  });
  // Every answer's fixed headers in one hook: its request id, and the security headers (computed
  // once): a page's for the app and its files, the API's for API calls (plugins/security-headers.ts;
  // with `cache-control: no-store`: the signed-in user's current data, no cache keeps them; a route
  // may say otherwise).
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.header(REQUEST_ID_HEADER, request.id).headers(url.startsWith('/api/') || url === '/api' ? apiHeaders : securityHeaders);
    done();
  });
  // Background work (the engines' replays) gives way while requests are under way.
  const foreground = trackForeground(app);
  // The latency histogram only where something can read it (metrics are off by default).
  if (config.METRICS_PORT || config.METRICS_TOKEN) recordRequestDurations(app);

  const background = new Set<Promise<void>>();
  const runInBackground = (task: () => Promise<void>) => {
    const promise = task()
      .catch((error: unknown) => app.log.error({ err: error }, 'background task failed'))
      .finally(() => background.delete(promise));
    background.add(promise);
  };
  app.decorate('drainBackgroundWork', async () => {
    while (background.size > 0) await Promise.all([...background]);
  });
  app.addHook('onClose', async () => app.drainBackgroundWork());

  // Answers are compressed (brotli or gzip, as the client accepts) from 1 KB on: JSON and other text
  // types. Static files come pre-compressed from the web build (below) and pass through untouched;
  // the NDJSON of the Options Scanner is no compressible type, so its lines still leave one by one.
  // Request bodies are not decompressed (no call takes a compressed body).
  await app.register(compress, { threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'], globalDecompression: false });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // Multipart forms are parsed only by the routes that take them (lib/multipart.ts acceptMultipart).

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
      const body = error.extra.error === undefined ? { msg: error.message } : { msg: error.message, error: error.extra.error };
      return reply.status(error.statusCode).send(body);
    }
    if (error instanceof UnknownSymbolError) return reply.status(404).send({ msg: `Unknown symbol: ${error.symbol}` });
    if (error instanceof NoPriceHistoryError) return reply.status(404).send({ msg: error.message });
    if (error instanceof CapabilityUnavailableError) return reply.status(503).send({ msg: error.message });
    if (error instanceof ProviderError) {
      request.log.warn({ err: error }, 'market data provider failed with nothing cached');
      return reply.status(502).send({ msg: `Market data is unavailable right now (${error.message}). Please try again shortly.` });
    }
    // The database or Redis gone (restarting, stopped, unreachable): 503, and the call works again once it is back.
    const unavailable = isRedisUnavailable(error) ? 'Redis' : isDatabaseUnavailable(error) ? 'database' : undefined;
    if (unavailable) {
      request.log.warn({ err: error }, `${unavailable} unavailable`);
      return reply.status(503).header('retry-after', '5').send({ msg: `The ${unavailable === 'Redis' ? 'shared cache (Redis)' : 'database'} is unavailable right now. Please try again shortly.` });
    }
    const answer = toErrorAnswer(error);
    if (answer) {
      // The forgot-password screen reads `error` (spec §8), also for a body it could not parse.
      const forgot = request.url.startsWith('/api/forgot-password');
      return reply.status(answer.status).send(forgot ? { msg: answer.msg, error: answer.msg } : { msg: answer.msg });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ msg: 'Something went wrong on our side. Please try again.' });
  });

  const users = createUsersRepo(db);
  const favorites = createFavoritesRepo(db);
  const auth = createAuthService({ users, mailer, clock });
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
  const sms = guardSms(provider, { db, clock, dailyLimit: config.SMS_DAILY_LIMIT, allowedCountries: config.SMS_ALLOWED_COUNTRIES, log: { warn: (message) => app.log.warn(message) } });

  const deliveryLog = { info: (message: string) => app.log.info(message), warn: (message: string) => app.log.warn(message) };
  const alertDelivery = createAlertDelivery({ db, sms, mailer, clock, config, log: deliveryLog, jwtSecret: deps.jwtSecret });
  app.decorate('alertDelivery', alertDelivery);
  app.addHook('onClose', async () => alertDelivery.stop());

  const defaultChecks = defaultReadinessChecks({ config, pool: deps.pool, mailKind: mailer.kind, smsKind: sms.kind, smsBudget: () => sms.budgetState() });
  const readiness = createReadiness(mergeChecks(defaultChecks.checks, deps.readinessChecks ?? []), { onClose: defaultChecks.close });
  app.addHook('onClose', async () => readiness.close());
  // GET /metrics on this port only with METRICS_TOKEN (server.ts opens METRICS_PORT instead/as well).
  if (config.METRICS_TOKEN) await app.register(metricsRoutes, { token: config.METRICS_TOKEN });

  // Routes that need no token, registered one by one.
  await app.register(
    async (open) => {
      await open.register(healthRoutes, { config, mailKind: mailer.kind, smsKind: sms.kind, clock, alertsEvaluatedAt: () => (deps.queued ? deps.queued.alertsEvaluatedAtMs() : (app.alertEvaluation?.lastEvaluatedAtMs() ?? null)), readiness });
      await open.register(publicAuthRoutes, { auth, tokens, limiters, runInBackground });
      // Twilio's callbacks (X-Twilio-Signature) and the e-mail unsubscribe link (a signed token).
      await open.register(alertDeliveryRoutes, { db, config, clock, linkKey: unsubscribeKeyOf(deps.jwtSecret) });
    },
    { prefix: '/api' },
  );

  // Everything else under /api needs a valid token; the hook runs before any body is read.
  const sessionUsers = createSessionUsers({ users, pool: deps.pool, clock, log: app.log });
  await sessionUsers.start();
  app.addHook('onClose', async () => sessionUsers.close());
  const authenticate = createAuthenticate(tokens, sessionUsers);
  const analyst = deps.analyst ?? createAnalyst(config);
  const dashboardRepo = createDashboardRepo(deps.db);
  const runs = createJobRuns(deps.db);
  const jobLog = { info: (message: string) => app.log.info(message), warn: (message: string) => app.log.warn(message) };
  // The live-update bus: idea updates and fired alerts are published on it (features/live).
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
  app.decorate('dashboardJobs', dashboardJobs);
  const tradesRepo = createTradesRepo(deps.db);
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
    foreground,
  });
  app.decorate('tradeJobs', tradeJobs);
  app.decorate('jobs', createJobRegistry([dashboardJobs, tradeJobs]));
  // A replay under way stops between two sessions (the next start runs it again).
  app.addHook('onClose', async () => tradeJobs.stop());
  // Live updates (features/live): the streams this process holds, fed by the bus.
  const liveRegistry = config.REDIS_URL ? createRedisRegistry({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, clock) : createMemoryRegistry(clock);
  const liveHub = createLiveHub({ bus, registry: liveRegistry, clock, log: jobLog, users: sessionUsers });
  const liveQuotes = createLiveQuotes({ market: deps.market, bus, registry: liveRegistry, log: jobLog });
  app.decorate('liveQuotes', liveQuotes);
  // Streams end before the server closes (an open stream would hold close() up).
  app.addHook('preClose', async () => {
    await liveQuotes.stop();
    await liveHub.close();
  });
  app.addHook('onClose', async () => {
    await liveRegistry.close();
    if (!deps.bus) await bus.close();
  });
  const alertEvaluation = createAlertEvaluation({
    db: deps.db,
    market: deps.market,
    marketClock: deps.marketClock,
    clock,
    ...(config.ALERT_POLL_SECONDS ? { pollSeconds: config.ALERT_POLL_SECONDS } : {}),
    delivery: deps.queued ? { kick: deps.queued.kickDelivery } : alertDelivery,
    alertCommitted: (alert) =>
      void bus.publish({ type: 'alert', userId: alert.userId, alertType: alert.alertType, symbol: alert.symbol === '*' ? null : alert.symbol, message: alert.smsText, at: alert.firedAt.getTime() }),
    log: jobLog,
  });
  app.decorate('alertEvaluation', alertEvaluation);
  app.addHook('onClose', async () => alertEvaluation.stop());
  await app.register(
    async (secured) => {
      secured.addHook('onRequest', authenticate);
      await secured.register(protectedAuthRoutes, { auth, sessionUsers, passwordChangeLimit: userLimits.passwordChange });
      await secured.register(favoritesRoutes, { favorites });
      await secured.register(savedAlertsRoutes, { db });
      await secured.register(phoneRoutes, { service: createPhoneService({ db, sms, clock, log: app.log, limits: { perAddressPerDay: config.VERIFICATION_MAX_PER_ADDRESS_PER_DAY, perDay: config.VERIFICATION_MAX_PER_DAY } }) });
      await secured.register(alertRulesRoutes, {
        // Test sends per user and channel per hour, counted in the database (shared by every process).
        service: createAlertRulesService({ repo: createAlertRulesRepo(db), sms, mailer, clock, log: app.log, testSends: createDbRateLimiter(createUsageCounters(db), { name: 'test-alert', max: config.TEST_ALERT_MAX_PER_HOUR, windowMs: 3_600_000, clock }) }),
        ruleSaved: (userId, type) => alertEvaluation.ruleSaved(userId, type),
      });
      await secured.register(alertHistoryRoutes, { service: createAlertHistoryService({ repo: createAlertHistoryRepo(db) }), clock });
      await secured.register(supportRoutes, { mailer, supportEmail: config.SUPPORT_EMAIL, limit: userLimits.support, maxConcurrentUploads: config.SUPPORT_MAX_CONCURRENT_UPLOADS, uploadTimeoutMs: config.UPLOAD_TIMEOUT_SECONDS * 1000 });
      await secured.register(docsRoutes);
      await secured.register(liveRoutes, { hub: liveHub });
      const marketService = createMarketService(deps.market, deps.marketClock);
      await secured.register(marketRoutes, { market: deps.market, service: marketService, imageOrigins: config.NEWS_IMAGE_ORIGINS });
      await secured.register(scansRoutes, {
        scans: createScansService({ favorites, market: marketService, sentiment: deps.market, clock: deps.marketClock, log: app.log }),
      });
      await secured.register(newsAnalysisRoutes, { service: createNewsAnalysisService({ analyst, clock, ttlMs: config.AI_CACHE_TTL_SECONDS * 1000, store }), limit: userLimits.analysis });
      await secured.register(dashboardRoutes, { repo: dashboardRepo, jobs: deps.queued ? { fillIfEmpty: deps.queued.fillDashboard } : dashboardJobs, market: deps.market, marketClock: deps.marketClock, imageOrigins: config.NEWS_IMAGE_ORIGINS });
      const records = createTrackRecords({ repo: tradesRepo, market: deps.market, marketClock: deps.marketClock, ...(deps.tradeUniverse ? { universe: deps.tradeUniverse } : {}) });
      await secured.register(tradesRoutes, { engines: tradeJobs.engines, repo: tradesRepo, market: deps.market, marketClock: deps.marketClock, records });
    },
    { prefix: '/api' },
  );

  await app.register(simulatedNewsRoutes, { market: deps.market });
  await app.register(robotsRoutes);

  const webDist = path.resolve(config.WEB_DIST ?? DEFAULT_WEB_DIST);
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    // The web build writes `.br` and `.gz` beside each text file (apps/web/precompress.ts): the best
    // one the browser accepts is sent, with `Vary: Accept-Encoding`. Hashed assets are cached for
    // good; everything else (index.html, favicon) is checked again on each use.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.startsWith(path.join(webDist, 'assets') + path.sep);
        res.header('cache-control', immutable ? IMMUTABLE_CACHE_CONTROL : 'no-cache');
      },
    });
  }

  const routePages = hasWeb ? routePagesOf(webDist) : new Map<string, string>();
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      return reply.status(404).send({ msg: `No such call: ${request.method} ${url}` });
    }
    if (hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes (/login, /dashboard/…, unknown paths) all load the app: a route's own
      // page (index.html linking the route's chunks too) where the build made one.
      return reply.header('cache-control', 'no-cache').sendFile(routePages.get(url.replace(/\/+$/, '')) ?? 'index.html');
    }
    return reply.status(404).send({ msg: 'Not found' });
  });

  return app;
}

/**
 * The pages the web build made per route (apps/web/route-preloads.ts): URL path → file under the web
 * build, e.g. '/dashboard/main' → 'routes/dashboard/main.html'. Only these exact paths are served
 * from `routes/`; a request's path never becomes a file name.
 */
export function routePagesOf(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  const dir = path.join(webDist, 'routes');
  if (!existsSync(dir)) return pages;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(webDist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    pages.set(`/${file.slice('routes/'.length, -'.html'.length)}`, file);
  }
  return pages;
}
