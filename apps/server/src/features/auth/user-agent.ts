/**
 * A person's name for what signed in, from its User-Agent header ("Chrome on Windows", "Safari on
 * iPhone", "curl"), for the Sessions list. Only the common browsers and systems are told apart; the
 * rest are "Unknown browser" / "unknown system", and the raw header is listed beside it.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];
const TOOLS = /^(curl|Wget|python-requests|node-fetch|node|undici|axios|HTTPie|PostmanRuntime|okhttp)\b/i;

export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.trim();
  if (ua === '') return 'Unknown device';
  const tool = TOOLS.exec(ua);
  if (tool) return tool[1]!;
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  const headless = /\bHeadlessChrome\//.test(ua) ? ' (headless)' : '';
  if (!browser && !system) return 'Unknown device';
  return `${browser ?? 'Unknown browser'}${headless} on ${system ?? 'unknown system'}`;
}
