import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from '@signalboard/core';
import { isLoopbackHost } from './lib/loopback';
import { parseTrustProxy } from './lib/trust-proxy';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();

const SMS_DAILY_LIMIT_MESSAGE = 'SMS_DAILY_LIMIT must be a whole number of 0 or more (0: no SMS at all)';

/** Every environment variable the server reads, with the embedded-mode defaults. README lists them. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The reverse proxies (addresses/CIDRs) whose X-Forwarded-For names the client; unset: none, the socket's address counts. */
  TRUST_PROXY: z
    .string()
    .transform((value, context) => {
      const { proxies, problems } = parseTrustProxy(value);
      for (const message of problems) context.addIssue({ code: 'custom', message });
      return proxies;
    })
    .optional(),
  /** Strict-Transport-Security max-age for HTTPS installations (0: the header is not sent). */
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000, 'HSTS_MAX_AGE_SECONDS is at most 63072000 (2 years)').default(0),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /** Redis (redis:// or rediss://): shared cache, rate limits, token buckets, pub/sub and the BullMQ job queues. */
  REDIS_URL: z.string().url().refine((url) => /^rediss?:\/\//.test(url), 'REDIS_URL must start with redis:// or rediss://').optional(),
  /** Prefix of every Redis key and BullMQ queue of this installation (several installations may share one Redis). */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'REDIS_PREFIX must be 1–40 letters, digits, _ . or -').default('signalboard'),
  /** Prometheus metrics on their own port (off when unset). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Prometheus metrics at GET /metrics on the API port, for a bearer token equal to this (off when unset). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Signalboard <no-reply@signalboard.local>'),
  SUPPORT_EMAIL: z.string().email().default('support@signalboard.local'),
  /** `outbox` (default: SMS kept in the database and DATA_DIR/sms-outbox) or `twilio` (Twilio Verify + Messages). */
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  /** SMS the whole installation may send per UTC day (codes, alerts, test sends; 0: none), counted in the database. */
  SMS_DAILY_LIMIT: z.coerce
    .number({ error: SMS_DAILY_LIMIT_MESSAGE })
    .int({ error: SMS_DAILY_LIMIT_MESSAGE })
    .min(0, { error: SMS_DAILY_LIMIT_MESSAGE })
    .default(200),
  /** Calling codes SMS may go to, comma-separated (default 1: the US and Canada). */
  SMS_ALLOWED_COUNTRIES: z
    .string()
    .default('1')
    .transform((value, context) => {
      const codes = value.split(',').map((code) => code.trim().replace(/^\+/, ''));
      if (codes.some((code) => !/^[1-9]\d{0,2}$/.test(code))) {
        context.addIssue({ code: 'custom', message: `SMS_ALLOWED_COUNTRIES must be calling codes separated by commas, e.g. 1 or 1,44 (got "${value}")` });
        return z.NEVER;
      }
      return [...new Set(codes)];
    }),
  /** Test alerts (POST /api/send_test_alert) per user and channel per hour. */
  TEST_ALERT_MAX_PER_HOUR: positiveInt.default(3),
  /**
   * Outgoing URLs a user gives (webhooks, ntfy servers; lib/outbound/url-guard.ts): http:// too (default
   * https only), and the hosts that may be on loopback, private, link-local or multicast addresses.
   */
  WEBHOOK_ALLOW_HTTP: booleanFlag.default(false),
  WEBHOOK_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')),
  /** Sends Discord webhook requests to this server instead of Discord's (tests, proxies); unset in production. */
  DISCORD_BASE_URL: z.string().url().optional(),
  /** Telegram alerts: the bot's token from @BotFather (unset: no Telegram channel). */
  TELEGRAM_BOT_TOKEN: z.string().regex(/^\d{3,20}:[A-Za-z0-9_-]{30,100}$/, 'TELEGRAM_BOT_TOKEN must be the token @BotFather gives, e.g. 123456789:AAE…').optional(),
  /**
   * How the bot hears /start and /stop: `polling` (default; getUpdates from the process that runs the
   * alert jobs) or `webhook` (Telegram posts to PUBLIC_URL/api/telegram/webhook, which must be https).
   */
  TELEGRAM_UPDATES: z.enum(['polling', 'webhook']).default('polling'),
  /** Telegram's Bot API origin (tests and proxies; default https://api.telegram.org). */
  TELEGRAM_API_BASE: z.string().url().default('https://api.telegram.org'),
  /** Browser push: the VAPID key pair (base64url); unset, one is made once in DATA_DIR/vapid-keys.json. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  /** Browser push: the contact push services may use (mailto: or https:); default the PUBLIC_URL when https, else mailto:MAIL_FROM's address. */
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'VAPID_SUBJECT must be a mailto: or https:// URL').optional(),
  /** The key that seals stored channel secrets (64 hex digits or base64 of 32 bytes); else DATA_DIR/encryption-key, made once. */
  ENCRYPTION_KEY: z.string().min(1).optional(),
  /** Verification codes per client address per 24 hours, and for the whole installation per 24 hours. */
  VERIFICATION_MAX_PER_ADDRESS_PER_DAY: positiveInt.default(20),
  VERIFICATION_MAX_PER_DAY: positiveInt.default(100),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /** An API key (SK…) and its secret, instead of the auth token. */
  TWILIO_API_KEY_SID: z.string().regex(/^SK[0-9a-fA-F]{32}$/, 'TWILIO_API_KEY_SID must be SK followed by 32 hex digits').optional(),
  TWILIO_API_KEY_SECRET: z.string().min(1).optional(),
  TWILIO_VERIFY_SERVICE_SID: z.string().regex(/^VA[0-9a-fA-F]{32}$/, 'TWILIO_VERIFY_SERVICE_SID must be VA followed by 32 hex digits').optional(),
  /** The sender of alert SMS: an E.164 number of the account, or a Messaging Service SID (MG…). */
  TWILIO_FROM: z
    .string()
    .regex(/^(\+[1-9]\d{1,14}|MG[0-9a-fA-F]{32})$/, 'TWILIO_FROM must be an E.164 number (+12223334444) or a Messaging Service SID (MG…)')
    .optional(),
  /** Sends Twilio's requests to this server instead (tests, proxies); unset in production. */
  TWILIO_BASE_URL: z.string().url().optional(),
  MARKET_DATA: z.enum(['simulated', 'file', 'live']).default('simulated'),
  /** The market cache's memory bound in MiB (providers/market/cache.ts; about 25 KB a symbol of recent daily bars). */
  MARKET_CACHE_MAX_MB: positiveInt.max(65_536).default(48),
  /** V8's heap growth past the live set after a full GC, in percent (lib/heap-growth.ts); 0: V8's own. */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(30),
  MARKET_NOW: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'MARKET_NOW must be an ISO time, e.g. 2026-11-20T15:30:00Z' })
    .optional(),
  PUBLIC_URL: z.string().url().optional(),
  /**
   * The https origins news images may come from, comma-separated: the CSP's img-src lists them, and
   * a news image from any other host is left out. Our own paths (the simulated market's) always load.
   */
  NEWS_IMAGE_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => {
      const origins = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
      return origins.map((entry) => {
        const url = URL.canParse(entry) ? new URL(entry) : undefined;
        if (!url || url.protocol !== 'https:' || url.origin !== entry.replace(/\/$/, '').toLowerCase() || url.username || url.password) {
          context.addIssue({ code: 'custom', message: `NEWS_IMAGE_ORIGINS must list https origins such as https://images.example.com, comma-separated (not "${entry}")` });
          return entry;
        }
        return url.origin;
      });
    }),
  DATASET_DIR: z.string().min(1).optional(),
  FINNHUB_API_KEY: z.string().min(1).optional(),
  TWELVEDATA_API_KEY: z.string().min(1).optional(),
  FRED_API_KEY: z.string().min(1).optional(),
  COINGECKO_API_KEY: z.string().min(1).optional(),
  FINNHUB_BASE_URL: z.string().url().optional(),
  TWELVEDATA_BASE_URL: z.string().url().optional(),
  FRED_BASE_URL: z.string().url().optional(),
  COINGECKO_BASE_URL: z.string().url().optional(),
  YAHOO_BASE_URL: z.string().url().optional(),
  BINANCE_BASE_URL: z.string().url().optional(),
  /** Yahoo needs no key; set false where Yahoo must not be called. */
  YAHOO_ENABLED: booleanFlag.default(true),
  LOGIN_MAX_PER_EMAIL: positiveInt.default(10),
  LOGIN_MAX_PER_ADDRESS: positiveInt.default(50),
  LOGIN_WINDOW_SECONDS: positiveInt.default(15 * 60),
  FORGOT_PASSWORD_MAX_PER_EMAIL: positiveInt.default(3),
  FORGOT_PASSWORD_MAX_PER_ADDRESS: positiveInt.default(20),
  FORGOT_PASSWORD_WINDOW_SECONDS: positiveInt.default(60 * 60),
  /** Per user: password changes (api/update-password) in each window. */
  PASSWORD_CHANGE_MAX_PER_USER: positiveInt.default(5),
  PASSWORD_CHANGE_WINDOW_SECONDS: positiveInt.default(60 * 60),
  /** Unset: the demo account only on loopback with the embedded database (features/auth/demo-account.ts). */
  DEMO_ACCOUNT: booleanFlag.optional(),
  /**
   * E-mail addresses made admins at every start (comma-separated; features/auth/roles.ts). An address
   * with no account yet is reported; `npm run user -- add <email> --admin` creates one.
   */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value, context) => {
      const emails = value.split(',').map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== '');
      for (const entry of emails) {
        if (!z.string().email().safeParse(entry).success) context.addIssue({ code: 'custom', message: `ADMIN_EMAILS must list e-mail addresses, comma-separated (not "${entry}")` });
      }
      return [...new Set(emails)];
    }),
  /**
   * `open`: anyone may ask for an account from the login screen (a link to create it is e-mailed,
   * docs/accounts.md). `closed` (the default): accounts come from invitations and the CLI only.
   */
  SIGNUP: z.enum(['open', 'closed'], { error: 'SIGNUP must be open or closed' }).default('closed'),
  /**
   * Single sign-on (docs/accounts.md "Single sign-on"): the OpenID Connect provider's issuer URL (its
   * discovery document is ISSUER/.well-known/openid-configuration). Register PUBLIC_URL/api/oidc/callback
   * as the client's redirect URI there.
   */
  OIDC_ISSUER: z.string().url({ error: 'OIDC_ISSUER must be the provider\'s issuer URL (https://…)' }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Unset: a public client (PKCE only, no client secret). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The login button says "Sign in with <label>". */
  OIDC_BUTTON_LABEL: z.string().trim().min(1).max(40, { error: 'OIDC_BUTTON_LABEL must be at most 40 characters' }).default('SSO'),
  /** A provider account with a verified e-mail no account has becomes a member at its first sign-in. */
  OIDC_AUTO_CREATE: booleanFlag.default(false),
  /** Members sign in through the provider only; the password form stays for admins. */
  OIDC_ONLY: booleanFlag.default(false),
  /** Allow an http:// issuer that is not on this machine (a provider on a private network); loopback is always allowed. */
  OIDC_ALLOW_HTTP: booleanFlag.default(false),
  /** The news analyst: `local` (offline, deterministic) or `openai` (any OpenAI-compatible chat-completions server). */
  AI_PROVIDER: z.enum(['local', 'openai']).default('local'),
  /** Unset: api.openai.com. For Ollama: http://127.0.0.1:11434/v1. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** How long one analysis may take before it answers 502. */
  AI_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
  /** Characters of news text an analysis reads; the rest is cut (at an item boundary). */
  AI_MAX_INPUT_CHARS: positiveInt.min(1_000).max(200_000).default(24_000),
  /** How long an analysis of the same text is reused. */
  AI_CACHE_TTL_SECONDS: positiveInt.default(600),
  /** Per user: news analyses that reach the analyst (cached answers are free) in each window. */
  ANALYSIS_MAX_PER_USER: positiveInt.default(20),
  ANALYSIS_WINDOW_SECONDS: positiveInt.default(10 * 60),
  /** Per user: support requests received in each window. */
  SUPPORT_MAX_PER_USER: positiveInt.default(5),
  SUPPORT_WINDOW_SECONDS: positiveInt.default(60 * 60),
  /** Support requests (up to 10 MB each) read at once by one API process; more answer 503 before their body is read. */
  SUPPORT_MAX_CONCURRENT_UPLOADS: positiveInt.max(1000).default(4),
  /** An upload's whole body must arrive within this long, else 408 (a slow client frees its upload slot); requests in general get 30 s more (lib/http-timeouts.ts). */
  UPLOAD_TIMEOUT_SECONDS: positiveInt.max(3600).default(120),
  /** On SIGTERM/SIGINT: how long the jobs under way, then the requests in flight, get to finish before the process closes what they use. */
  SHUTDOWN_DRAIN_SECONDS: positiveInt.max(300).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  NODE_ENV: z.string().optional(),
  /** A test setting (lib/test-control.ts): moves the quotes and the clock of a running server; only with NODE_ENV=test. */
  TEST_CONTROL_FILE: z.string().min(1).optional(),
  /** How often the alert quote poller reads the watched symbols (default: 15 s for simulated/file data; live: within the provider limits). */
  ALERT_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  // Custom scans' abuse limits (docs/custom-scans.md "Running a scan", "Backtest jobs").
  /** Per user: scan runs (POST api/scans/run) in each window; the Custom Scan alerts' own runs are not counted. */
  SCAN_RUN_MAX_PER_USER: positiveInt.default(60),
  SCAN_RUN_WINDOW_SECONDS: positiveInt.default(60),
  /** Backtests one process runs at once (the API's without REDIS_URL, each worker's with it); more wait, queued, for a slot. */
  SCAN_BACKTEST_MAX_CONCURRENT: positiveInt.max(16).default(1),
  /** Per user: watchlist import previews (POST api/watchlist/import_preview; each looks up to 2,000 symbols) in each window (docs/data-in-and-out.md). */
  WATCHLIST_IMPORT_MAX_PER_USER: positiveInt.default(30),
  WATCHLIST_IMPORT_WINDOW_SECONDS: positiveInt.default(10 * 60),
});

/** MARKET_NOW with MARKET_DATA=live: live providers serve today's data, and the rate limits and cache run on real time. */
const MARKET_NOW_WITH_LIVE = 'MARKET_NOW pins the clock for simulated and file data only; unset it to use MARKET_DATA=live.';

/** AI_PROVIDER=openai against api.openai.com needs a key; a local server (OPENAI_BASE_URL) may not. */
const OPENAI_KEY_NEEDED = 'AI_PROVIDER=openai needs OPENAI_API_KEY, or OPENAI_BASE_URL pointing at a server that needs none (e.g. Ollama).';

/** SMS_PROVIDER=twilio: what is missing, one message per variable. */
function twilioIssues(env: z.infer<typeof envSchema>): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  const need = (name: keyof typeof env, what: string) => {
    if (env[name] === undefined) issues.push({ path: name, message: `SMS_PROVIDER=twilio needs ${name} (${what}).` });
  };
  need('TWILIO_ACCOUNT_SID', 'the account SID, AC…');
  need('TWILIO_VERIFY_SERVICE_SID', 'the Verify service SID, VA…');
  need('TWILIO_FROM', 'the sender number or Messaging Service SID');
  const apiKey = env.TWILIO_API_KEY_SID !== undefined || env.TWILIO_API_KEY_SECRET !== undefined;
  if (apiKey) {
    need('TWILIO_API_KEY_SID', 'with TWILIO_API_KEY_SECRET');
    need('TWILIO_API_KEY_SECRET', 'with TWILIO_API_KEY_SID');
  } else if (env.TWILIO_AUTH_TOKEN === undefined) {
    issues.push({ path: 'TWILIO_AUTH_TOKEN', message: 'SMS_PROVIDER=twilio needs TWILIO_AUTH_TOKEN, or TWILIO_API_KEY_SID with TWILIO_API_KEY_SECRET.' });
  }
  return issues;
}

/** Rules across variables, reported like any other bad value. */
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  if (env.MARKET_DATA === 'live' && env.MARKET_NOW !== undefined) {
    context.addIssue({ code: 'custom', path: ['MARKET_NOW'], message: MARKET_NOW_WITH_LIVE });
  }
  if (env.AI_PROVIDER === 'openai' && env.OPENAI_BASE_URL === undefined && env.OPENAI_API_KEY === undefined) {
    context.addIssue({ code: 'custom', path: ['OPENAI_API_KEY'], message: OPENAI_KEY_NEEDED });
  }
  if (env.TEST_CONTROL_FILE !== undefined && env.NODE_ENV !== 'test') {
    context.addIssue({ code: 'custom', path: ['TEST_CONTROL_FILE'], message: 'TEST_CONTROL_FILE is a test setting: it works only with NODE_ENV=test, never in a normal installation.' });
  }
  if (env.SMS_PROVIDER === 'twilio') {
    for (const issue of twilioIssues(env)) context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
  for (const issue of oidcIssues(env)) context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});

/** Single sign-on's settings that only make sense together. */
function oidcIssues(env: z.infer<typeof envSchema>): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if (env.OIDC_ISSUER === undefined) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
      if (env[name] !== undefined) issues.push({ path: name, message: `${name} needs OIDC_ISSUER (the provider's issuer URL).` });
    }
    if (env.OIDC_ONLY) issues.push({ path: 'OIDC_ONLY', message: 'OIDC_ONLY needs single sign-on: set OIDC_ISSUER and OIDC_CLIENT_ID.' });
    return issues;
  }
  if (env.OIDC_CLIENT_ID === undefined) issues.push({ path: 'OIDC_CLIENT_ID', message: "OIDC_ISSUER needs OIDC_CLIENT_ID (the client's id at the provider)." });
  if (!URL.canParse(env.OIDC_ISSUER)) return issues; // reported by its own check
  const issuer = new URL(env.OIDC_ISSUER);
  if (issuer.protocol === 'http:' && !isLoopbackHost(issuer.hostname) && !env.OIDC_ALLOW_HTTP) {
    issues.push({ path: 'OIDC_ISSUER', message: 'OIDC_ISSUER must be https:// (or on this machine); set OIDC_ALLOW_HTTP=true for a provider on a private network.' });
  } else if (issuer.protocol !== 'http:' && issuer.protocol !== 'https:') {
    issues.push({ path: 'OIDC_ISSUER', message: "OIDC_ISSUER must be the provider's issuer URL (https://…)" });
  }
  return issues;
}


export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'DATA_DIR' | 'PUBLIC_URL'> {
  DATA_DIR: string;
  /** Base of the absolute links the app writes where no page is there to resolve a path (e-mails, SMS). */
  PUBLIC_URL: string;
  isExternalDatabase: boolean;
  isSmtpConfigured: boolean;
  /** REDIS_URL is set: shared state on Redis, jobs on BullMQ (run by `npm run worker` processes). */
  isRedis: boolean;
}

export class ConfigError extends Error {}

/**
 * PUBLIC_URL's default follows HOST and PORT: the address the server listens on, with a wildcard
 * address (0.0.0.0, ::) read as this machine's `localhost`.
 */
export function defaultPublicUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Reads the environment once; a bad value stops the process with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = checkedEnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  return {
    ...config,
    DATA_DIR: path.resolve(config.DATA_DIR),
    PUBLIC_URL: (config.PUBLIC_URL ?? defaultPublicUrl(config.HOST, config.PORT)).replace(/\/+$/, ''),
    isExternalDatabase: config.DATABASE_URL !== undefined,
    isSmtpConfigured: config.SMTP_URL !== undefined,
    isRedis: config.REDIS_URL !== undefined,
  };
}
