import { describe, expect, it } from 'vitest';
import { sniffAttachment } from './content-sniff';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('sniffAttachment', () => {
  it('knows the images and PDF by their magic bytes', () => {
    expect(sniffAttachment(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe('image/png');
    expect(sniffAttachment(bytes([0xff, 0xd8, 0xff, 0xdb, 0, 0x43]))).toBe('image/jpeg');
    expect(sniffAttachment(bytes('GIF87a', [1, 0, 1, 0]))).toBe('image/gif');
    expect(sniffAttachment(bytes('GIF89a', [1, 0, 1, 0]))).toBe('image/gif');
    expect(sniffAttachment(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8L', [0, 0]))).toBe('image/webp');
    expect(sniffAttachment(bytes('%PDF-1.7\n', [0xe2, 0xe3, 0xcf, 0xd3, 0]))).toBe('application/pdf');
  });

  it('takes UTF-8 text without NUL bytes as plain text, with or without a byte-order mark', () => {
    expect(sniffAttachment(bytes('2026-11-02 error: quote feed down\n'))).toBe('text/plain; charset=utf-8');
    expect(sniffAttachment(bytes([0xef, 0xbb, 0xbf], 'Überweisung €5'))).toBe('text/plain; charset=utf-8');
    expect(sniffAttachment(bytes('a < b and <b is not a tag'))).toBe('text/plain; charset=utf-8');
    expect(sniffAttachment(bytes('<table-of-contents> is plain'))).toBe('text/plain; charset=utf-8');
    expect(sniffAttachment(bytes('{"json": true}'))).toBe('text/plain; charset=utf-8');
  });

  it('refuses everything else: NUL bytes, invalid UTF-8, archives, executables, RIFF that is not WebP', () => {
    expect(sniffAttachment(bytes('text\u0000more'))).toBeUndefined();
    expect(sniffAttachment(bytes([0x47, 0x72, 0xfc, 0x65]))).toBeUndefined(); // Latin-1 "Grüe"
    expect(sniffAttachment(bytes([0xc3, 0x28]))).toBeUndefined();
    expect(sniffAttachment(bytes('PK', [3, 4, 20, 0, 0, 0]))).toBeUndefined();
    expect(sniffAttachment(bytes('MZ', [0x90, 0, 3, 0]))).toBeUndefined();
    expect(sniffAttachment(bytes([0x7f], 'ELF', [2, 1, 1, 0]))).toBeUndefined();
    expect(sniffAttachment(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBeUndefined();
    expect(sniffAttachment(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBeUndefined(); // an old Office file
  });

  it('refuses text a browser would render as a page: HTML, XML and SVG at the start, after any white space', () => {
    for (const page of [
      '<!DOCTYPE html><html></html>',
      '<html>',
      '<HTML lang="en">',
      '<script>alert(1)</script>',
      '<body onload="x()">',
      '<iframe src=x>',
      '<!-- comment -->',
      '<?xml version="1.0"?><svg/>',
      '<svg xmlns="http://www.w3.org/2000/svg">',
      '<p>',
      '<a href=x>',
    ]) {
      expect(sniffAttachment(bytes(page)), page).toBeUndefined();
      expect(sniffAttachment(bytes([0xef, 0xbb, 0xbf], ' '.repeat(5000), '\r\n\t', page)), `padded ${page}`).toBeUndefined();
    }
  });
});
