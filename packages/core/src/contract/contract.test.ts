import { describe, expect, it } from 'vitest';
import type { ZodError } from 'zod';
import {
  batchUpdateFavoriteStocksRequest,
  deleteFavoriteStocksRequest,
  formatIssues,
  loginRequest,
  updatePasswordRequest,
} from './index';

function msgOf(result: { success: boolean; error?: ZodError }) {
  expect(result.success).toBe(false);
  return formatIssues(result.error!);
}

describe('contract', () => {
  it('normalises the login e-mail and names missing fields', () => {
    expect(loginRequest.parse({ email: ' Demo@Signalboard.Local ', password: 'p' }).email).toBe(
      'demo@signalboard.local',
    );
    expect(msgOf(loginRequest.safeParse({ password: 'p' }))).toBe('Email is required');
    expect(msgOf(loginRequest.safeParse({ email: 'a@b', password: '' }))).toBe('Password is required');
    expect(msgOf(loginRequest.safeParse({ email: 5, password: 'p' }))).toBe('Email must be text');
    expect(msgOf(loginRequest.safeParse({ email: 'nope', password: 'p' }))).toBe(
      'Email must be an e-mail address',
    );
  });

  it('bounds the password length', () => {
    expect(msgOf(updatePasswordRequest.safeParse({ new_password: 'x'.repeat(1025) }))).toBe(
      'New password must be at most 1024 characters',
    );
  });

  it('trims and upper-cases favourite symbols', () => {
    const parsed = batchUpdateFavoriteStocksRequest.parse({
      stocks: [{ symbol: ' aapl ', description: 'Apple Inc.' }, { symbol: 'ry.to' }],
    });
    expect(parsed.stocks).toEqual([
      { symbol: 'AAPL', description: 'Apple Inc.' },
      { symbol: 'RY.TO', description: '' },
    ]);
    expect(deleteFavoriteStocksRequest.parse({ symbols: [' msft'] }).symbols).toEqual(['MSFT']);
  });

  it('rejects bad symbols and shapes with a clear message', () => {
    expect(msgOf(batchUpdateFavoriteStocksRequest.safeParse({}))).toBe(
      'stocks must be a list of {symbol, description}',
    );
    expect(msgOf(batchUpdateFavoriteStocksRequest.safeParse({ stocks: [{ symbol: '  ' }] }))).toBe(
      'Symbol is required',
    );
    expect(msgOf(deleteFavoriteStocksRequest.safeParse({ symbols: ['DROP TABLE'] }))).toBe(
      'Symbol may hold only letters, digits and . - ^ = :',
    );
    expect(msgOf(deleteFavoriteStocksRequest.safeParse({ symbols: [] }))).toBe(
      'symbols must name at least one symbol',
    );
  });
});
