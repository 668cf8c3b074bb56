import { afterEach, describe, expect, it } from 'vitest';
import { hasValidToken, tokenStorage } from './token-storage';

const token = (exp: number) => `h.${btoa(JSON.stringify({ sub: '1', exp })).replace(/=+$/, '')}.s`;

afterEach(() => window.localStorage.clear());

describe('dashboard guard rule', () => {
  it('keeps a token that has not expired', () => {
    tokenStorage.set(token(2_000));
    expect(hasValidToken(1_999_000)).toBe(true);
    expect(window.localStorage.getItem('access_token')).not.toBeNull();
  });

  it('removes an expired token', () => {
    tokenStorage.set(token(2_000));
    expect(hasValidToken(2_001_000)).toBe(false);
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('sends a visitor without a token away', () => {
    expect(hasValidToken()).toBe(false);
  });
});
