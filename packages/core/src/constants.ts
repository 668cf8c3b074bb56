/** Business constants from spec §9, named once. */

/** Local-storage key that holds the signed access token (spec §3, §9). */
export const ACCESS_TOKEN_STORAGE_KEY = 'access_token';

/** Side menu width (spec §2, §9). */
export const SIDE_MENU_WIDTH_PX = 250;

/** The seven default favourites added after the first password change (spec §4, §9). */
export const DEFAULT_FAVORITE_STOCKS: ReadonlyArray<{ symbol: string; description: string }> = [
  { symbol: 'AAPL', description: 'Apple Inc.' },
  { symbol: 'MSFT', description: 'Microsoft Corporation' },
  { symbol: 'GOOGL', description: 'Alphabet Inc. Class A' },
  { symbol: 'AMZN', description: 'Amazon.com, Inc.' },
  { symbol: 'META', description: 'Meta Platforms, Inc.' },
  { symbol: 'NVDA', description: 'NVIDIA Corporation' },
  { symbol: 'TSLA', description: 'Tesla, Inc.' },
];

/** Largest support attachment accepted by api/contact-support. */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Lifetime of a temporary password sent by api/forgot-password. */
export const TEMPORARY_PASSWORD_TTL_SECONDS = 60 * 60;
/** How long an invitation's link (or a sign-up's) works (issue 28): 72 hours. */
export const INVITATION_TTL_SECONDS = 72 * 60 * 60;

/** Default lifetime of an access token. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/** Longest password accepted (bounds the hashing work an attacker can ask for). */
export const PASSWORD_MAX_LENGTH = 1024;

/** Largest number of favourites one batch may carry. */
export const FAVORITES_BATCH_MAX = 500;

/** Most favourites one user may keep: every scan reads each of them, so the list is bounded. */
export const FAVORITES_MAX = 500;

/** Shortest new password api/update-password accepts (issue 28; counted in characters, not bytes). */
export const PASSWORD_MIN_LENGTH = 10;
/** The rules of a new password as the screens that take one say them (Account, an invitation's). */
export const PASSWORD_RULES = `At least ${PASSWORD_MIN_LENGTH} characters, and not one of the most common passwords.`;
