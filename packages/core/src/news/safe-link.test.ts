import { describe, expect, it } from 'vitest';
import { safeLinkUrl } from './safe-link';

describe('safeLinkUrl: provider links and images only when absolute http(s) or on our own origin', () => {
  it('keeps http and https URLs', () => {
    expect(safeLinkUrl('https://example.com/news/1?a=b')).toBe('https://example.com/news/1?a=b');
    expect(safeLinkUrl('http://example.com/img.png')).toBe('http://example.com/img.png');
    expect(safeLinkUrl('  HTTPS://Example.com/x  ')).toBe('https://example.com/x');
    expect(safeLinkUrl('https://news.example:8443')).toBe('https://news.example:8443/');
    expect(safeLinkUrl('http://[::1]:3000/a#b')).toBe('http://[::1]:3000/a#b');
  });

  it('keeps paths on our own origin (the simulated market links its articles so)', () => {
    expect(safeLinkUrl('/simulated-news/AAPL-2026-11-20-2')).toBe('/simulated-news/AAPL-2026-11-20-2');
    expect(safeLinkUrl('/simulated-news/market-2026-11-20-0/image.svg')).toBe('/simulated-news/market-2026-11-20-0/image.svg');
  });

  it.each([
    ['javascript:alert(1)'],
    [' JavaScript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['data:image/png;base64,AAAA'],
    ['vbscript:msgbox(1)'],
    ['news/article.html'],
    ['./article.html'],
    ['//example.com/protocol-relative'],
    ['/\\example.com/backslash'],
    ['/news/with space'],
    ['/news/\u0000nul'],
    ['https://'],
    ['http:///path-only'],
    ['https://exa mple.com/'],
    ['https://user:pass@example.com/'],
    ['https://example.com\\@evil.example/'],
    ['https://-bad-.example/'],
    ['ftp://example.com/file'],
    ['mailto:someone@example.com'],
    ['not a url'],
    [''],
    ['   '],
  ])('drops %j', (url) => {
    expect(safeLinkUrl(url)).toBeNull();
  });

  it('drops what is not a string', () => {
    for (const value of [null, undefined, 42, {}, ['https://example.com']]) expect(safeLinkUrl(value)).toBeNull();
  });
});
