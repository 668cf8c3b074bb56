/**
 * Provider news content is untrusted (spec §3 "News article"): a link or image URL is used only
 * when it is an absolute http(s) URL. Anything else — javascript:, data:, relative, ftp, garbage —
 * gives null, and the caller leaves the link or image out.
 */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  if (trimmed === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.href;
}
