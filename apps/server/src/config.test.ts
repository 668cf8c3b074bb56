import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', MARKET_DATA: 'simulated', ACCESS_TOKEN_TTL_SECONDS: 43_200, isExternalDatabase: false, isSmtpConfigured: false });
    expect(config.DATA_DIR).toBe(path.resolve('./data'));
  });

  it('treats empty values as unset and names a bad variable', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).isExternalDatabase).toBe(false);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow('JWT_SECRET must be at least 32 characters');
    expect(() => loadConfig({ MARKET_NOW: 'tomorrow' })).toThrow(/MARKET_NOW must be an ISO time/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).isExternalDatabase).toBe(true);
  });
});
