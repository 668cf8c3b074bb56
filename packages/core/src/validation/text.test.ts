import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from '../contract/index';
import { formatIssues } from '../contract/common';
import {
  controlCharacterMessage,
  hasControlCharacter,
  multiLineText,
  singleLineText,
  stripControlCharacters,
  uncheckedTextFields,
} from './text';

const msgOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  expect(result.success, JSON.stringify(input)).toBe(false);
  return formatIssues(result.error!);
};

/** Every code point the rule is about: U+0000–U+001F and U+007F. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)), '\u007f'];
const LINE_BREAKS_AND_TAB = ['\t', '\n', '\r'];

describe('control characters', () => {
  it('are U+0000–U+001F and U+007F; a multi-line text allows tab, LF and CR only', () => {
    for (const char of CONTROLS) {
      expect(hasControlCharacter(`a${char}b`, 'single'), `U+${char.charCodeAt(0).toString(16)}`).toBe(true);
      expect(hasControlCharacter(`a${char}b`, 'multi'), `U+${char.charCodeAt(0).toString(16)}`).toBe(!LINE_BREAKS_AND_TAB.includes(char));
    }
    for (const text of ['plain', 'é ü ß', '株式 📈', '\u0080\u0085\u00a0\u2028\u202e\ufeff', ' spaced ']) {
      expect(hasControlCharacter(text, 'single'), text).toBe(false);
    }
  });

  it('are stripped (each to a space) from text that comes from elsewhere', () => {
    expect(stripControlCharacters('a\u0000b\tc\nd\u007f', 'single')).toBe('a b c d ');
    expect(stripControlCharacters('a\u0000b\tc\r\nd\u001b', 'multi')).toBe('a b\tc\r\nd ');
  });
});

describe('singleLineText', () => {
  const email = singleLineText('Email', { required: true, max: 10 });

  it('answers a control character with a msg naming the field', () => {
    for (const char of CONTROLS) {
      expect(msgOf(z.object({ email }), { email: `a${char}b` })).toBe('Email must not contain line breaks or other control characters');
    }
    expect(controlCharacterMessage('Email', 'single')).toBe('Email must not contain line breaks or other control characters');
  });

  it('trims surrounding whitespace (a pasted tab or line break) before the check', () => {
    expect(email.parse('\t a@b \r\n')).toBe('a@b');
    expect(msgOf(email, '\u0000a@b')).toBe('Email must not contain line breaks or other control characters');
    expect(msgOf(email, 'a@\nb')).toBe('Email must not contain line breaks or other control characters');
  });

  it('trims, and keeps the usual messages for absent, blank, non-text and long values', () => {
    expect(email.parse('  a@b  ')).toBe('a@b');
    expect(msgOf(z.object({ email }), {})).toBe('Email is required');
    expect(msgOf(z.object({ email }), { email: null })).toBe('Email is required');
    expect(msgOf(z.object({ email }), { email: '   ' })).toBe('Email is required');
    expect(msgOf(z.object({ email }), { email: 5 })).toBe('Email must be text');
    expect(msgOf(z.object({ email }), { email: ['a'] })).toBe('Email must be text');
    expect(msgOf(z.object({ email }), { email: 'x'.repeat(11) })).toBe('Email must be at most 10 characters');
  });

  it('keeps the spaces of a secret', () => {
    expect(singleLineText('Password', { trim: false }).parse(' p w ')).toBe(' p w ');
    expect(msgOf(singleLineText('Password', { trim: false }), 'p\u0000')).toBe('Password must not contain line breaks or other control characters');
  });

  it('accepts an empty value unless required', () => {
    expect(singleLineText('Note').parse('  ')).toBe('');
  });
});

describe('multiLineText', () => {
  const body = multiLineText('Body', { required: true });

  it('keeps tab, line feed and carriage return, untrimmed', () => {
    expect(body.parse('Line one\r\n\tLine two\n')).toBe('Line one\r\n\tLine two\n');
  });

  it('answers other control characters with a msg naming the field', () => {
    for (const char of CONTROLS.filter((c) => !LINE_BREAKS_AND_TAB.includes(c))) {
      expect(msgOf(z.object({ body }), { body: `a${char}b` })).toBe('Body must not contain control characters other than tabs and line breaks');
    }
    expect(msgOf(z.object({ body }), { body: ' \n\t ' })).toBe('Body is required');
  });
});

describe('uncheckedTextFields', () => {
  it('names every string that skips the builders, wherever it hides', () => {
    const schema = z.object({
      ok: singleLineText('ok'),
      plain: z.string(),
      list: z.array(z.object({ inner: z.string().optional(), fine: multiLineText('fine').default('') })),
      either: z.union([z.number(), z.string().trim()]),
      piped: singleLineText('piped').pipe(z.string().min(1)),
      choice: z.enum(['a', 'b']),
    });
    expect(uncheckedTextFields(schema)).toEqual(['plain', 'list[].inner', 'either', 'piped']);
    expect(uncheckedTextFields(z.string())).toEqual(['(root)']);
    expect(uncheckedTextFields(singleLineText('x').refine(() => true).transform((v) => v.length))).toEqual([]);
  });
});

/**
 * Every schema the contract exports that a client sends (a request, a query, a form, or part of
 * one). Responses are recognised by name (…Response, …Body, …Event) and so are the schemas they are
 * built from; everything else is input, so a new request schema is checked without being listed.
 */
function contractInputs(): Array<[string, z.ZodType]> {
  const schemas = (Object.entries(contract) as Array<[string, unknown]>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);
  const outputs = new Set<unknown>();
  const collect = (node: unknown) => {
    if (typeof node !== 'object' || node === null || !('_zod' in node) || outputs.has(node)) return;
    outputs.add(node);
    const def = (node as z.ZodType)._zod.def as unknown as Record<string, unknown>;
    for (const value of Object.values(def)) {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object' && !('_zod' in value)) Object.values(value).forEach(collect);
      else collect(value);
    }
  };
  for (const [name, schema] of schemas) if (/(Response|Body|Event)$/.test(name)) collect(schema);
  return schemas.filter(([, schema]) => !outputs.has(schema));
}

describe('the contract', () => {
  it('builds every text field of every request with singleLineText or multiLineText', () => {
    const inputs = contractInputs();
    const names = inputs.map(([name]) => name);
    // The walk finds the requests of every feature (a rename that hid them would pass vacuously).
    expect(names).toEqual(expect.arrayContaining(['loginRequest', 'forgotPasswordRequest', 'updatePasswordRequest', 'batchUpdateFavoriteStocksRequest', 'contactSupportFields', 'supportAttachmentName', 'symbolLookupQuery', 'rsiQuery', 'companyNewsQuery', 'earningsCalendarRequest', 'highLowRequest', 'dropScanRequest', 'newsAnalysisRequest', 'trumpNewsAnalysisRequest']));
    expect(names).not.toContain('newsArticle');
    const unchecked = inputs.flatMap(([name, schema]) => uncheckedTextFields(schema).map((path) => `${name}: ${path}`));
    expect(unchecked).toEqual([]);
  });

  const NUL = '\u0000';
  it('answers a control character in each request text field with a msg naming the field', () => {
    const cases: Array<[z.ZodType, Record<string, unknown>, string]> = [
      [contract.loginRequest, { email: `a${NUL}@b.c`, password: 'p' }, 'Email must not contain line breaks or other control characters'],
      [contract.loginRequest, { email: 'a@b.c', password: `p${NUL}` }, 'Password must not contain line breaks or other control characters'],
      [contract.forgotPasswordRequest, { email: `a@b.c${NUL}` }, 'Email must not contain line breaks or other control characters'],
      [contract.updatePasswordRequest, { new_password: 'new\npass' }, 'New password must not contain line breaks or other control characters'],
      [contract.batchUpdateFavoriteStocksRequest, { stocks: [{ symbol: 'AAPL', description: `Apple${NUL}` }] }, 'Description must not contain line breaks or other control characters'],
      [contract.batchUpdateFavoriteStocksRequest, { stocks: [{ symbol: 'AA\tPL' }] }, 'Symbol must not contain line breaks or other control characters'],
      [contract.deleteFavoriteStocksRequest, { symbols: [`MSFT${NUL}`] }, 'Symbol must not contain line breaks or other control characters'],
      [contract.contactSupportFields, { header: 'Hi\r\nBcc: x@y.z', body: 'b' }, 'Header must not contain line breaks or other control characters'],
      [contract.contactSupportFields, { header: 'h', body: `b${NUL}` }, 'Body must not contain control characters other than tabs and line breaks'],
      [contract.supportAttachmentName, { name: 'x' }, 'File name must be text'],
      [contract.symbolLookupQuery, { q: `app${NUL}` }, 'q must not contain line breaks or other control characters'],
      [contract.symbolSearchQuery, { symbol: `a\u007f` }, 'symbol must not contain line breaks or other control characters'],
      [contract.symbolQuery, { symbol: `AAPL${NUL}` }, 'Symbol must not contain line breaks or other control characters'],
      [contract.rsiQuery, { symbol: 'AAPL', from: `2026-06-01${NUL}`, to: '2026-11-01' }, 'from must not contain line breaks or other control characters'],
      [contract.companyNewsQuery, { symbol: 'AAPL', from: '2026-11-01', to: '2026-11\n-13' }, 'to must not contain line breaks or other control characters'],
      [contract.earningsCalendarRequest, { start_date: `2026-11-01${NUL}`, end_date: '2026-11-02' }, 'start_date must not contain line breaks or other control characters'],
      [contract.highLowRequest, { symbol: 'AAPL', days: `30${NUL}` }, 'days must not contain line breaks or other control characters'],
      [contract.trendDirectionRequest, { symbol: 'AAPL', days: '2\r0' }, 'days must not contain line breaks or other control characters'],
      [contract.dropScanRequest, { threshold: `10${NUL}` }, 'threshold must not contain line breaks or other control characters'],
      [contract.newsAnalysisRequest, { event_string: `Fed: rates${NUL}` }, 'event_string must not contain control characters other than tabs and line breaks'],
      [contract.trumpNewsAnalysisRequest, { news_data: 'Tariffs: \u001b[31m' }, 'news_data must not contain control characters other than tabs and line breaks'],
    ];
    for (const [schema, input, msg] of cases) expect(msgOf(schema, input), JSON.stringify(input)).toBe(msg);
    expect(msgOf(contract.supportAttachmentName, `a${NUL}.txt`)).toBe('File name must not contain line breaks or other control characters');
  });

  it('keeps line breaks and tabs in multi-line fields, and trims single-line ones', () => {
    expect(contract.contactSupportFields.parse({ header: '  Help  ', body: 'Line 1\r\n\tLine 2' })).toEqual({ header: 'Help', body: 'Line 1\r\n\tLine 2' });
    expect(contract.newsAnalysisRequest.parse({ event_string: 'A: b\nC: d' }).event_string).toBe('A: b\nC: d');
    expect(contract.loginRequest.parse({ email: ' A@B.C ', password: ' secret ' })).toEqual({ email: 'a@b.c', password: ' secret ' });
  });
});
