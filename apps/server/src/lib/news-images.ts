import { safeLinkUrl } from '@signalboard/core';

/**
 * A news image the browser may load under our CSP (img-src: our own origin and NEWS_IMAGE_ORIGINS):
 * a path on our own origin (the simulated market's images), or an https URL on one of `origins`.
 * Anything else becomes '' and the card shows no image: provider news (Finnhub's) links pictures
 * on whatever host each publisher uses, and a page must not load from hosts nobody chose.
 */
export function allowedNewsImage(image: unknown, origins: readonly string[]): string {
  const safe = safeLinkUrl(image);
  if (!safe) return '';
  if (safe.startsWith('/')) return safe;
  return origins.includes(new URL(safe).origin) ? safe : '';
}
