import { describe, expect, it } from 'vitest';
import { slugify } from './slug';

describe('slugify', () => {
  it('makes an id-safe slug of any text', () => {
    expect(slugify('Health Care')).toBe('health-care');
    expect(slugify('  Oil & Gas / Energy  ')).toBe('oil-gas-energy');
    expect(slugify('Société Générale')).toBe('societe-generale');
    expect(slugify('S&P 500')).toBe('s-p-500');
    expect(slugify('')).toBe('item');
    expect(slugify('***')).toBe('item');
  });

  it('never answers white space or characters that need escaping in a selector', () => {
    for (const text of ['Health Care', 'Tab\tand\nnewline', 'Ünïcödé ✓ ☃', 'a:b.c#d[e]']) expect(slugify(text)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
