import { describe, expect, it } from 'vitest';
import { safeHttpUrl } from './safe-http-url';

describe('safeHttpUrl: provider links and images only when absolute http(s)', () => {
  it('keeps http and https URLs', () => {
    expect(safeHttpUrl('https://example.com/news/1?a=b')).toBe('https://example.com/news/1?a=b');
    expect(safeHttpUrl('http://example.com/img.png')).toBe('http://example.com/img.png');
    expect(safeHttpUrl('  HTTPS://Example.com/x  ')).toBe('https://example.com/x');
  });

  it.each([
    ['javascript:alert(1)'],
    [' JavaScript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['data:image/png;base64,AAAA'],
    ['vbscript:msgbox(1)'],
    ['/relative/path'],
    ['news/article.html'],
    ['//example.com/protocol-relative'],
    ['ftp://example.com/file'],
    ['mailto:someone@example.com'],
    ['not a url'],
    [''],
    ['   '],
  ])('drops %j', (url) => {
    expect(safeHttpUrl(url)).toBeNull();
  });

  it('drops missing values', () => {
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl(undefined)).toBeNull();
  });
});
