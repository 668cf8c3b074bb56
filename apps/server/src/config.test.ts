import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

/** The ConfigError message, or undefined when the environment is accepted. */
function problem(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('configuration', () => {
  it('reads NEWS_IMAGE_ORIGINS as https origins only', () => {
    expect(loadConfig({}).NEWS_IMAGE_ORIGINS).toEqual([]);
    expect(loadConfig({ NEWS_IMAGE_ORIGINS: ' https://images.example.com, https://CDN.example.net:8443/ ' }).NEWS_IMAGE_ORIGINS).toEqual(['https://images.example.com', 'https://cdn.example.net:8443']);
    for (const value of ['http://images.example.com', 'https://images.example.com/path', 'https:', '*', 'images.example.com', 'https://user:pw@images.example.com']) {
      expect(problem({ NEWS_IMAGE_ORIGINS: value }), value).toMatch(/NEWS_IMAGE_ORIGINS must list https origins/);
    }
  });

  it('reads ADMIN_EMAILS as e-mail addresses, lower-cased, once each', () => {
    expect(loadConfig({}).ADMIN_EMAILS).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Owner@Example.com, ,club@example.org,owner@example.com ' }).ADMIN_EMAILS).toEqual(['owner@example.com', 'club@example.org']);
    expect(problem({ ADMIN_EMAILS: 'owner@example.com, not-an-address' })).toMatch(/ADMIN_EMAILS must list e-mail addresses, comma-separated \(not "not-an-address"\)/);
  });

  it('derives PUBLIC_URL (the base of links in e-mails and SMS) from HOST and PORT unless it is set', () => {
    expect(loadConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '192.168.1.20', PORT: '3000' }).PUBLIC_URL).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ HOST: '0.0.0.0' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::1', PORT: '3001' }).PUBLIC_URL).toBe('http://[::1]:3001');
    expect(loadConfig({ HOST: 'box.lan' }).PUBLIC_URL).toBe('http://box.lan:3000');
    expect(loadConfig({ PUBLIC_URL: 'https://signals.example.com/' }).PUBLIC_URL).toBe('https://signals.example.com');
    expect(problem({ PUBLIC_URL: 'signals.example.com' })).toMatch(/PUBLIC_URL: /);
  });

  it('has the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      MARKET_DATA: 'simulated',
      ACCESS_TOKEN_TTL_SECONDS: 43_200,
      SUPPORT_EMAIL: 'support@signalboard.local',
      MAIL_FROM: 'Signalboard <no-reply@signalboard.local>',
      LOGIN_MAX_PER_EMAIL: 10,
      LOGIN_MAX_PER_ADDRESS: 50,
      LOGIN_WINDOW_SECONDS: 900,
      FORGOT_PASSWORD_MAX_PER_EMAIL: 3,
      FORGOT_PASSWORD_MAX_PER_ADDRESS: 20,
      FORGOT_PASSWORD_WINDOW_SECONDS: 3600,
      YAHOO_ENABLED: true,
      HSTS_MAX_AGE_SECONDS: 0,
      LOG_LEVEL: 'info',
      isExternalDatabase: false,
      isSmtpConfigured: false,
      isRedis: false,
      REDIS_PREFIX: 'signalboard',
      PUBLIC_URL: 'http://127.0.0.1:3000',
    });
    expect(config.DATA_DIR).toBe(path.resolve('./data'));
    expect(config.JWT_SECRET).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.METRICS_PORT).toBeUndefined();
    expect(config.METRICS_TOKEN).toBeUndefined();
    expect(config.DEMO_ACCOUNT).toBeUndefined(); // decided by HOST and the database (features/auth/demo-account.ts)
    expect(config.TRUST_PROXY).toBeUndefined();
  });

  it('reads TRUST_PROXY as addresses and CIDR ranges, and refuses a setting that trusts every sender', () => {
    expect(loadConfig({ TRUST_PROXY: '172.28.0.10' }).TRUST_PROXY).toEqual(['172.28.0.10']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/24, fd00::/64 ::1 ' }).TRUST_PROXY).toEqual(['10.0.0.0/24', 'fd00::/64', '::1']);
    for (const everyone of ['true', '*', '0.0.0.0/0', '::/0', '10.0.0.1,0.0.0.0/0', '::ffff:0.0.0.0/96', '::/64']) {
      const message = problem({ TRUST_PROXY: everyone });
      expect(message, everyone).toMatch(/^Invalid configuration:\n {2}TRUST_PROXY: /);
      expect(message, everyone).toMatch(/would trust every client's X-Forwarded-For/);
    }
    for (const bad of ['1', 'false', 'loopback', 'proxy.lan', '10.0.0.1/33', '10.0.0.0/x', '10.0.0.0/8/1', 'fd00::/129', ',']) {
      expect(problem({ TRUST_PROXY: bad }), bad).toMatch(/TRUST_PROXY: /);
    }
  });

  it('reads HSTS_MAX_AGE_SECONDS: 0 (off) to two years', () => {
    expect(loadConfig({ HSTS_MAX_AGE_SECONDS: '31536000' }).HSTS_MAX_AGE_SECONDS).toBe(31_536_000);
    expect(problem({ HSTS_MAX_AGE_SECONDS: '-1' })).toMatch(/HSTS_MAX_AGE_SECONDS: /);
    expect(problem({ HSTS_MAX_AGE_SECONDS: '63072001' })).toContain('HSTS_MAX_AGE_SECONDS is at most 63072000 (2 years)');
    expect(problem({ HSTS_MAX_AGE_SECONDS: 'year' })).toMatch(/HSTS_MAX_AGE_SECONDS: /);
  });

  it('reads the scale-out settings and refuses a REDIS_URL of another scheme', () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2', REDIS_PREFIX: 'sb-prod', METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(16) });
    expect(config).toMatchObject({ isRedis: true, REDIS_PREFIX: 'sb-prod', METRICS_PORT: 9464, METRICS_TOKEN: 'a'.repeat(16) });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow('REDIS_URL must start with redis:// or rediss://');
    expect(() => loadConfig({ REDIS_PREFIX: 'a b' })).toThrow('REDIS_PREFIX must be');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters');
  });

  it('reads and coerces the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: 'relative/dir',
      DATABASE_URL: 'postgres://u@h/db',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      LOGIN_MAX_PER_EMAIL: '3',
      DEMO_ACCOUNT: 'no',
      YAHOO_ENABLED: '0',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(config).toMatchObject({ PORT: 8080, LOGIN_MAX_PER_EMAIL: 3, DEMO_ACCOUNT: false, YAHOO_ENABLED: false, isExternalDatabase: true, isSmtpConfigured: true });
    expect(config.DATA_DIR).toBe(path.resolve('relative/dir'));
    expect(loadConfig({ DEMO_ACCOUNT: 'yes', YAHOO_ENABLED: '1' })).toMatchObject({ DEMO_ACCOUNT: true, YAHOO_ENABLED: true });
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', PORT: '', JWT_SECRET: '', SMTP_URL: '', LOGIN_MAX_PER_EMAIL: '', MARKET_DATA: '' });
    expect(config).toMatchObject({ PORT: 3000, LOGIN_MAX_PER_EMAIL: 10, MARKET_DATA: 'simulated', isExternalDatabase: false, isSmtpConfigured: false });
    expect(config.JWT_SECRET).toBeUndefined();
  });

  it('refuses a bad PORT with a ConfigError naming PORT', () => {
    for (const port of ['eighty', '70000', '-1', '80.5']) {
      expect(problem({ PORT: port }), port).toMatch(/^Invalid configuration:\n {2}PORT: /);
    }
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
  });

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    expect(problem({ JWT_SECRET: 'short' })).toBe('Invalid configuration:\n  JWT_SECRET: JWT_SECRET must be at least 32 characters');
    expect(problem({ JWT_SECRET: 'x'.repeat(31) })).toContain('JWT_SECRET must be at least 32 characters');
    expect(problem({ JWT_SECRET: 'x'.repeat(32) })).toBeUndefined();
  });

  it('refuses MARKET_NOW with MARKET_DATA=live, saying what to do', () => {
    const now = '2026-11-20T16:00:00Z';
    expect(problem({ MARKET_DATA: 'live', MARKET_NOW: now })).toBe(
      'Invalid configuration:\n  MARKET_NOW: MARKET_NOW pins the clock for simulated and file data only; unset it to use MARKET_DATA=live.',
    );
    // Pinned simulated or file data, and live data on the real clock, stay fine; '' means unset.
    expect(problem({ MARKET_DATA: 'simulated', MARKET_NOW: now })).toBeUndefined();
    expect(problem({ MARKET_DATA: 'file', MARKET_NOW: now })).toBeUndefined();
    expect(problem({ MARKET_NOW: now })).toBeUndefined();
    expect(problem({ MARKET_DATA: 'live' })).toBeUndefined();
    expect(problem({ MARKET_DATA: 'live', MARKET_NOW: '' })).toBeUndefined();
  });

  it('has the analyst defaults and reads the analyst settings', () => {
    expect(loadConfig({})).toMatchObject({ AI_PROVIDER: 'local', OPENAI_MODEL: 'gpt-4o-mini', AI_TIMEOUT_MS: 30_000, AI_MAX_INPUT_CHARS: 24_000, AI_CACHE_TTL_SECONDS: 600 });
    const config = loadConfig({
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3.2',
      AI_TIMEOUT_MS: '5000',
      AI_MAX_INPUT_CHARS: '8000',
      AI_CACHE_TTL_SECONDS: '60',
    });
    expect(config).toMatchObject({ AI_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'llama3.2', AI_TIMEOUT_MS: 5000, AI_MAX_INPUT_CHARS: 8000, AI_CACHE_TTL_SECONDS: 60 });
    expect(config.OPENAI_API_KEY).toBeUndefined();
  });

  it('refuses AI_PROVIDER=openai against api.openai.com without a key, and bad analyst values', () => {
    expect(problem({ AI_PROVIDER: 'openai' })).toContain('OPENAI_API_KEY: AI_PROVIDER=openai needs OPENAI_API_KEY');
    expect(problem({ AI_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test' })).toBeUndefined();
    expect(problem({ AI_PROVIDER: 'gpt' })).toMatch(/AI_PROVIDER: /);
    expect(problem({ OPENAI_BASE_URL: 'localhost' })).toMatch(/OPENAI_BASE_URL: /);
    expect(problem({ AI_TIMEOUT_MS: '0' })).toMatch(/AI_TIMEOUT_MS: /);
    expect(problem({ AI_MAX_INPUT_CHARS: '10' })).toMatch(/AI_MAX_INPUT_CHARS: /);
    expect(problem({ AI_CACHE_TTL_SECONDS: '-1' })).toMatch(/AI_CACHE_TTL_SECONDS: /);
  });

  it('names every other bad variable', () => {
    expect(problem({ MARKET_NOW: 'tomorrow' })).toContain('MARKET_NOW: MARKET_NOW must be an ISO time');
    expect(problem({ MARKET_DATA: 'real' })).toMatch(/MARKET_DATA: /);
    expect(problem({ DATABASE_URL: 'not a url' })).toMatch(/DATABASE_URL: /);
    expect(problem({ SUPPORT_EMAIL: 'nobody' })).toMatch(/SUPPORT_EMAIL: /);
    expect(problem({ LOGIN_MAX_PER_EMAIL: '0' })).toMatch(/LOGIN_MAX_PER_EMAIL: /);
    expect(problem({ ACCESS_TOKEN_TTL_SECONDS: '-5' })).toMatch(/ACCESS_TOKEN_TTL_SECONDS: /);
    expect(problem({ DEMO_ACCOUNT: 'maybe' })).toMatch(/DEMO_ACCOUNT: /);
    expect(problem({ LOG_LEVEL: 'loud' })).toMatch(/LOG_LEVEL: /);
    const both = problem({ PORT: 'x', JWT_SECRET: 'y' })!;
    expect(both).toMatch(/PORT: /);
    expect(both).toMatch(/JWT_SECRET: /);
  });
  it('has the costly-call limits (per user) and the support upload cap, positive whole numbers', () => {
    expect(loadConfig({})).toMatchObject({
      ANALYSIS_MAX_PER_USER: 20,
      ANALYSIS_WINDOW_SECONDS: 600,
      SUPPORT_MAX_PER_USER: 5,
      SUPPORT_WINDOW_SECONDS: 3600,
      SUPPORT_MAX_CONCURRENT_UPLOADS: 4,
      PASSWORD_CHANGE_MAX_PER_USER: 5,
      PASSWORD_CHANGE_WINDOW_SECONDS: 3600,
      WATCHLIST_IMPORT_MAX_PER_USER: 30,
      WATCHLIST_IMPORT_WINDOW_SECONDS: 600,
    });
    expect(loadConfig({ ANALYSIS_MAX_PER_USER: '50', SUPPORT_MAX_CONCURRENT_UPLOADS: '8' })).toMatchObject({ ANALYSIS_MAX_PER_USER: 50, SUPPORT_MAX_CONCURRENT_UPLOADS: 8 });
    for (const name of ['ANALYSIS_MAX_PER_USER', 'SUPPORT_WINDOW_SECONDS', 'PASSWORD_CHANGE_MAX_PER_USER', 'SUPPORT_MAX_CONCURRENT_UPLOADS', 'WATCHLIST_IMPORT_MAX_PER_USER']) {
      expect(problem({ [name]: '0' }), name).toMatch(new RegExp(`${name}: `));
    }
    expect(problem({ SUPPORT_MAX_CONCURRENT_UPLOADS: '1001' })).toMatch(/SUPPORT_MAX_CONCURRENT_UPLOADS: /);
  });

  it('reads single sign-on: off by default; the issuer needs a client id, https unless on this machine or allowed', () => {
    expect(loadConfig({})).toMatchObject({ OIDC_BUTTON_LABEL: 'SSO', OIDC_AUTO_CREATE: false, OIDC_ONLY: false, OIDC_ALLOW_HTTP: false });
    expect(loadConfig({}).OIDC_ISSUER).toBeUndefined();
    const client = { OIDC_CLIENT_ID: 'signalboard' };
    expect(loadConfig({ ...client, OIDC_ISSUER: 'https://auth.example.com/application/o/signalboard/', OIDC_ONLY: 'true' })).toMatchObject({ OIDC_ONLY: true });
    expect(problem({ ...client, OIDC_ISSUER: 'http://127.0.0.1:9000' })).toBeUndefined();
    expect(problem({ ...client, OIDC_ISSUER: 'http://auth.lan:9000' })).toMatch(/OIDC_ISSUER: OIDC_ISSUER must be https:\/\/ \(or on this machine\); set OIDC_ALLOW_HTTP=true/);
    expect(problem({ ...client, OIDC_ISSUER: 'http://auth.lan:9000', OIDC_ALLOW_HTTP: 'true' })).toBeUndefined();
    expect(problem({ OIDC_ISSUER: 'https://auth.example.com' })).toMatch(/OIDC_CLIENT_ID: OIDC_ISSUER needs OIDC_CLIENT_ID/);
    expect(problem({ ...client })).toMatch(/OIDC_CLIENT_ID: OIDC_CLIENT_ID needs OIDC_ISSUER/);
    expect(problem({ OIDC_ONLY: 'true' })).toMatch(/OIDC_ONLY: OIDC_ONLY needs single sign-on/);
    expect(problem({ ...client, OIDC_ISSUER: 'auth.example.com' })).toMatch(/OIDC_ISSUER: /);
    expect(problem({ OIDC_BUTTON_LABEL: 'x'.repeat(41) })).toMatch(/OIDC_BUTTON_LABEL must be at most 40 characters/);
  });

  it('selects the SMS provider: the outbox by default, Twilio only with its settings', () => {
    expect(loadConfig({}).SMS_PROVIDER).toBe('outbox');
    const sid = (prefix: string) => `${prefix}${'0123456789abcdef'.repeat(2)}`;
    const twilio = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: sid('AC'), TWILIO_VERIFY_SERVICE_SID: sid('VA'), TWILIO_FROM: '+12223334444' };
    expect(loadConfig({ ...twilio, TWILIO_AUTH_TOKEN: 'token' })).toMatchObject({ SMS_PROVIDER: 'twilio', TWILIO_AUTH_TOKEN: 'token' });
    expect(problem({ ...twilio, TWILIO_API_KEY_SID: sid('SK'), TWILIO_API_KEY_SECRET: 'secret' })).toBeUndefined();
    expect(problem({ ...twilio, TWILIO_FROM: sid('MG'), TWILIO_AUTH_TOKEN: 'token' })).toBeUndefined();
    expect(problem(twilio)).toMatch(/TWILIO_AUTH_TOKEN: SMS_PROVIDER=twilio needs TWILIO_AUTH_TOKEN, or TWILIO_API_KEY_SID with TWILIO_API_KEY_SECRET\./);
    expect(problem({ ...twilio, TWILIO_API_KEY_SID: sid('SK') })).toMatch(/TWILIO_API_KEY_SECRET: SMS_PROVIDER=twilio needs TWILIO_API_KEY_SECRET/);
    expect(problem({ SMS_PROVIDER: 'twilio', TWILIO_AUTH_TOKEN: 'token' })).toMatch(/TWILIO_ACCOUNT_SID: .*\n.*TWILIO_VERIFY_SERVICE_SID: .*\n.*TWILIO_FROM: /);
    expect(problem({ ...twilio, TWILIO_AUTH_TOKEN: 'token', TWILIO_ACCOUNT_SID: 'AC123' })).toMatch(/TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits/);
    expect(problem({ ...twilio, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '2223334444' })).toMatch(/TWILIO_FROM must be an E\.164 number/);
    expect(problem({ SMS_PROVIDER: 'sms' })).toMatch(/SMS_PROVIDER: /);
  });

  it('reads the SMS limits: the daily budget, the allowed calling codes, test sends and codes per address and per installation', () => {
    expect(loadConfig({})).toMatchObject({
      SMS_DAILY_LIMIT: 200,
      SMS_ALLOWED_COUNTRIES: ['1'],
      TEST_ALERT_MAX_PER_HOUR: 3,
      VERIFICATION_MAX_PER_ADDRESS_PER_DAY: 20,
      VERIFICATION_MAX_PER_DAY: 100,
    });
    expect(loadConfig({ SMS_DAILY_LIMIT: '0' }).SMS_DAILY_LIMIT).toBe(0);
    expect(loadConfig({ SMS_DAILY_LIMIT: '1000' }).SMS_DAILY_LIMIT).toBe(1000);
    for (const bad of ['-1', '2.5', 'lots']) expect(problem({ SMS_DAILY_LIMIT: bad }), bad).toMatch(/SMS_DAILY_LIMIT: SMS_DAILY_LIMIT must be a whole number of 0 or more/);
    expect(loadConfig({ SMS_ALLOWED_COUNTRIES: '1,44' }).SMS_ALLOWED_COUNTRIES).toEqual(['1', '44']);
    expect(loadConfig({ SMS_ALLOWED_COUNTRIES: ' +1, +44 ,1' }).SMS_ALLOWED_COUNTRIES).toEqual(['1', '44']);
    expect(loadConfig({ SMS_ALLOWED_COUNTRIES: '353' }).SMS_ALLOWED_COUNTRIES).toEqual(['353']);
    for (const bad of ['UK', '1,,44', '0', '1234', '+', '1;44']) {
      expect(problem({ SMS_ALLOWED_COUNTRIES: bad }), bad).toMatch(/SMS_ALLOWED_COUNTRIES: SMS_ALLOWED_COUNTRIES must be calling codes separated by commas, e\.g\. 1 or 1,44/);
    }
    expect(loadConfig({ TEST_ALERT_MAX_PER_HOUR: '5', VERIFICATION_MAX_PER_ADDRESS_PER_DAY: '50', VERIFICATION_MAX_PER_DAY: '500' })).toMatchObject({
      TEST_ALERT_MAX_PER_HOUR: 5,
      VERIFICATION_MAX_PER_ADDRESS_PER_DAY: 50,
      VERIFICATION_MAX_PER_DAY: 500,
    });
    for (const name of ['TEST_ALERT_MAX_PER_HOUR', 'VERIFICATION_MAX_PER_ADDRESS_PER_DAY', 'VERIFICATION_MAX_PER_DAY']) {
      expect(problem({ [name]: '0' }), name).toMatch(new RegExp(`${name}: `));
    }
  });
});
