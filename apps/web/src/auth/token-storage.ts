import { ACCESS_TOKEN_STORAGE_KEY, isTokenExpired } from '@signalboard/core';

/** The access token lives in local storage under `access_token` (spec §3). */
export const tokenStorage = {
  get(): string | null {
    try {
      return window.localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    window.localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, token);
  },
  clear(): void {
    window.localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
  },
};

/**
 * The guard's rule (spec §4, §6): a token that is present and not expired. An expired token is
 * removed. Answers whether the user may stay.
 */
export function hasValidToken(nowMs = Date.now()): boolean {
  const token = tokenStorage.get();
  if (!token) return false;
  if (isTokenExpired(token, nowMs / 1000)) {
    tokenStorage.clear();
    return false;
  }
  return true;
}
