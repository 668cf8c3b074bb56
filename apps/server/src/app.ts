/**
 * The HTTP app: Fastify with its plugins, hooks and error answers, the routes of every feature on the
 * services of container.ts, and the web build. server.ts listens with it; tests inject into it.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from '@signalboard/core';
import { createContainer, type ContainerDeps } from './container';
import { isDatabaseUnavailable } from './db/errors';
import { registeredEndpoints } from './lib/endpoint';
import { httpTimeouts } from './lib/http-timeouts';
import { compressAnswers } from './lib/compress';
import { protectedAuthRoutes, publicAuthRoutes } from './features/auth/auth.routes';
import { adminRoutes } from './features/admin/admin.routes';
import { priceImportRoutes } from './features/data-import/prices.routes';
import { createInstallation } from './features/admin/installation';
import { adminInvitationRoutes, publicInvitationRoutes } from './features/auth/invitations.routes';
import { twoFactorAdminRoutes } from './features/two-factor/two-factor-admin.routes';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes';
import { oidcRoutes, publicOidcRoutes } from './features/oidc/oidc.routes';
import { favoritesRoutes } from './features/watchlist/watchlist.routes';
import type { DashboardJobs } from './features/dashboard/dashboard.jobs';
import type { TradeJobs } from './features/trades/trades.jobs';
import type { ScanBacktests } from './features/custom-scans/backtest.job';
import { trackForeground } from './lib/foreground';
import { tradesRoutes } from './features/trades/trades.routes';
import { customScansRoutes } from './features/custom-scans/custom-scans.routes';
import type { JobRegistry } from './jobs/registry';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { docsRoutes } from './features/docs/openapi';
import { healthRoutes } from './features/health/health.routes';
import { metricsRoutes, recordRequestDurations } from './features/metrics/metrics.routes';
import { robotsRoutes } from './features/robots/robots.routes';
import { marketRoutes } from './features/market/market.routes';
import { newsAnalysisRoutes } from './features/news/news-analysis.routes';
import { NoPriceHistoryError } from './providers/market/types';
import { simulatedNewsRoutes } from './features/market/simulated-news.routes';
import { dropScannerRoutes } from './features/drop-scanner/drop-scanner.routes';
import { optionSignalsRoutes } from './features/option-signals/option-signals.routes';
import { favoriteQuotesRoutes } from './features/watchlist/favorite-quotes.routes';
import { watchlistImportRoutes } from './features/watchlist/watchlist-import.routes';
import { supportRoutes } from './features/support/support.routes';
import { savedAlertsRoutes } from './features/alerts/saved/saved.routes';
import { phoneRoutes } from './features/alerts/phone/phone.routes';
import { alertRulesRoutes } from './features/alerts/rules/rules.routes';
import { alertHistoryRoutes } from './features/alerts/history/history.routes';
import type { TelegramService } from './features/alerts/channels/telegram/telegram.service';
import { telegramWebhookRoutes, webhooksRoutes } from './features/alerts/channels/webhooks.routes';
import type { AlertEvaluation } from './features/alerts/evaluation/evaluation';
import type { AlertDelivery } from './features/alerts/delivery/delivery';
import { alertDeliveryRoutes } from './features/alerts/delivery/delivery.routes';
import { unsubscribeKeyOf } from './features/alerts/delivery/unsubscribe-token';
import type { LiveQuotes } from './features/live/live-quotes';
import { liveRoutes } from './features/live/live.routes';
import { systemClock } from './lib/clock';
import { edgeErrorHandlers } from './lib/edge-errors';
import { HttpError } from './lib/errors';
import { isRedisUnavailable } from './lib/redis';
import { REQUEST_ID_HEADER, requestIdFromHeaders } from './lib/request-id';
import { lazyChildLoggerFactory } from './lib/request-logger';
import { createAuthenticate } from './plugins/authenticate';
import { computeApiHeaders, computeSecurityHeaders } from './plugins/security-headers';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError } from './providers/market/types';

/** The container's dependencies (container.ts), and how the HTTP app logs. */
export interface AppDeps extends ContainerDeps {
  /** pino options, or false for no logs (tests). */
  logger?: boolean | Record<string, unknown>;
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
    /** Telegram's updates (/start, /stop): the server entry starts them where the jobs run. */
    telegram: TelegramService;
    /** The live-quote publisher: a timer in one process (server.ts), a worker's schedule with Redis. */
    liveQuotes: LiveQuotes;
    /** The saved scans' backtests: in the background of this process, or enqueued for the workers with Redis. */
    scanBacktests: ScanBacktests;
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
            // Bodies are never logged; these keep a secret out should one be. Not `*.code`: that is every logged error's `err.code`.
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.new_password', '*.current_password', '*.challenge', '*.recovery_codes'],
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
  // The signed-in user's fields exist on every request from its start (plugins/authenticate.ts sets
  // them): a property added to some requests only gives Fastify's request objects two shapes.
  app.decorateRequest('user', null as unknown as FastifyRequest['user']);
  app.decorateRequest('sessionEndsAtMs', 0);
  app.decorateRequest('sessionId', '');
  // The declaration of every route registered from here on (lib/endpoint.ts): GET /api/docs documents them.
  const endpoints = registeredEndpoints(app);
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
  // types (lib/compress.ts). Static files come pre-compressed from the web build (below) and pass
  // through untouched, as do the NDJSON of the Options Scanner and the live stream, line by line.
  // Request bodies are not decompressed (no call takes a compressed body).
  compressAnswers(app, { threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // Multipart forms are parsed only by the routes that take them (lib/multipart.ts acceptMultipart).

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
      const { error: legacy, code } = error.extra;
      const body = { msg: error.message, ...(legacy === undefined ? {} : { error: legacy }), ...(code === undefined ? {} : { code }) };
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

  // Every repo, service and job (container.ts); this file is the HTTP side only.
  const services = createContainer(deps, { log: app.log, foreground });
  const { alertDelivery, readiness, sessionUsers, alertEvaluation, tradeJobs, dashboardJobs, liveQuotes, liveHub } = services;
  app.decorate('alertDelivery', alertDelivery);
  // Streams end before the server closes (an open stream would hold close() up); the rest of the
  // container after it, in the container's one order (container.ts close), once background work is drained.
  app.addHook('preClose', async () => services.closeStreams());
  app.addHook('onClose', async () => services.close());
  // GET /metrics on this port only with METRICS_TOKEN (server.ts opens METRICS_PORT instead/as well).
  if (config.METRICS_TOKEN) await app.register(metricsRoutes, { token: config.METRICS_TOKEN });

  const alertsEvaluatedAt = () => (deps.queued ? deps.queued.alertsEvaluatedAtMs() : alertEvaluation.lastEvaluatedAtMs());

  // Routes that need no token, registered one by one.
  await app.register(
    async (open) => {
      await open.register(healthRoutes, { config, mailKind: mailer.kind, smsKind: services.sms.kind, clock, alertsEvaluatedAt, readiness, ...(deps.market.importedSymbols ? { importedSymbols: deps.market.importedSymbols } : {}) });
      await open.register(publicAuthRoutes, { auth: services.auth, tokens: services.tokens, limiters: services.limiters, twoFactor: services.twoFactor, oidc: services.oidc, runInBackground });
      await open.register(publicInvitationRoutes, { invitations: services.invitations, auth: services.auth, twoFactor: services.twoFactor, tokens: services.tokens, limiters: services.limiters, signUp: config.SIGNUP, oidc: services.oidc, runInBackground });
      await open.register(publicOidcRoutes, { oidc: services.oidc, auth: services.auth, twoFactor: services.twoFactor, tokens: services.tokens, limiters: services.limiters });
      // Twilio's callbacks (X-Twilio-Signature) and the e-mail unsubscribe link (a signed token).
      await open.register(alertDeliveryRoutes, { db, config, clock, linkKey: unsubscribeKeyOf(deps.jwtSecret) });
      // Telegram's update webhook (its secret-token header).
      await open.register(telegramWebhookRoutes, { telegram: services.telegram });
    },
    { prefix: '/api' },
  );

  // Everything else under /api needs a valid token; the hook runs before any body is read.
  await services.start();
  const authenticate = createAuthenticate(services.tokens, sessionUsers);
  app.decorate('dashboardJobs', dashboardJobs);
  app.decorate('tradeJobs', tradeJobs);
  app.decorate('jobs', services.jobs);
  app.decorate('liveQuotes', liveQuotes);
  app.decorate('alertEvaluation', alertEvaluation);
  app.decorate('telegram', services.telegram);
  app.decorate('scanBacktests', services.scanBacktests);
  await app.register(
    async (secured) => {
      secured.addHook('onRequest', authenticate);
      await secured.register(protectedAuthRoutes, { auth: services.auth, sessionUsers, passwordChangeLimit: services.userLimits.passwordChange });
      await secured.register(favoritesRoutes, { favorites: services.favorites });
      await secured.register(savedAlertsRoutes, { db });
      await secured.register(phoneRoutes, { service: services.phone });
      await secured.register(alertRulesRoutes, { service: services.alertRules, ruleSaved: (userId, type) => alertEvaluation.ruleSaved(userId, type) });
      await secured.register(alertHistoryRoutes, { service: services.alertHistory, clock });
      await secured.register(webhooksRoutes, { service: services.webhooks, telegram: services.telegram });
      await secured.register(supportRoutes, { mailer, supportEmail: config.SUPPORT_EMAIL, limit: services.userLimits.support, maxConcurrentUploads: config.SUPPORT_MAX_CONCURRENT_UPLOADS, uploadTimeoutMs: config.UPLOAD_TIMEOUT_SECONDS * 1000 });
      await secured.register(docsRoutes, { endpoints });
      await secured.register(liveRoutes, { hub: liveHub });
      await secured.register(marketRoutes, { market: deps.market, service: services.marketService, imageOrigins: config.NEWS_IMAGE_ORIGINS });
      // The favourites' batch calls, in this order: the Drop Scanner, Option Signals, the WatchList's quotes.
      await secured.register(dropScannerRoutes, { dropScanner: services.dropScanner });
      await secured.register(optionSignalsRoutes, { optionSignals: services.optionSignals });
      await secured.register(favoriteQuotesRoutes, { favoriteQuotes: services.favoriteQuotes });
      await secured.register(watchlistImportRoutes, { service: services.watchlistImport, limit: services.userLimits.watchlistImport });
      await secured.register(newsAnalysisRoutes, { service: services.newsAnalysis, limit: services.userLimits.analysis });
      await secured.register(dashboardRoutes, { repo: services.dashboardRepo, jobs: deps.queued ? { fillIfEmpty: deps.queued.fillDashboard } : dashboardJobs, market: deps.market, marketClock: deps.marketClock, imageOrigins: config.NEWS_IMAGE_ORIGINS });
      await secured.register(tradesRoutes, { versions: tradeJobs.versions, repo: services.tradesRepo, market: deps.market, marketClock: deps.marketClock, records: services.records });
      const installation = createInstallation({ db, config, clock, readiness, mailKind: mailer.kind, smsKind: services.sms.kind, alertsEvaluatedAt });
      await secured.register(adminRoutes, { service: services.admin, audit: services.audit, sessionUsers, clock, installation });
      await secured.register(priceImportRoutes, { service: services.priceImport });
      await secured.register(adminInvitationRoutes, { invitations: services.invitations, limit: services.invitationLimit });
      await secured.register(oidcRoutes, { oidc: services.oidc });
      await secured.register(twoFactorRoutes, { service: services.twoFactor, sessionUsers, codeLimit: services.twoFactorCodeLimit });
      await secured.register(twoFactorAdminRoutes, { service: services.twoFactor, users: services.users, audit: services.audit, sessionUsers });
      await secured.register(customScansRoutes, { db, market: deps.market, marketClock: deps.marketClock, favorites: services.favorites, backtests: services.scanBacktests, runLimit: services.userLimits.scanRun });
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
