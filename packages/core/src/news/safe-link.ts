/**
 * Provider content is untrusted (spec §3 "News article", DESIGN "Security rules"): a link or image
 * URL is used only when it is an absolute http(s) URL with a host, or a path on our own origin
 * (`/simulated-news/…`: the simulated market's articles, which must load wherever the app is opened).
 * Anything else — javascript:, data:, protocol-relative `//host`, `/\host`, relative paths, ftp,
 * white space inside, garbage — gives null, and the caller leaves the link or image out.
 */
export function safeLinkUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (url === '' || /[\s\u0000-\u001f\u007f]/.test(url)) return null;
  // A same-origin path: one slash, then not a second slash or a backslash (browsers read `/\` as `//`).
  if (/^\/(?![/\\])/.test(url)) return url;
  const absolute = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (!absolute) return null;
  const [, scheme, authority, rest] = absolute as unknown as [string, string, string, string];
  // A host name or an IP (v6 in brackets), an optional port; no user info, no backslash.
  if (!/^(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(authority)) return null;
  if (rest.includes('\\')) return null;
  return `${scheme.toLowerCase()}://${authority.toLowerCase()}${rest === '' ? '/' : rest}`;
}
