import { exprToGroups, parseFormula } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { CATALOG } from './__fixtures__/catalog';
import { formulaOfRows, groupsToRows, newRow, rowsToGroups, rowToCondition, withField, type BuilderRows } from './builder-model';
import { checkFormula, excerptAt } from './formula-model';


const rowsOf = (formula: string): BuilderRows => groupsToRows(exprToGroups(parseFormula(formula))!, CATALOG);

describe('builder rows ↔ formula', () => {
  it.each([
    'rsi(14) < 30 and close > sma(200) and pct_below_high(21) >= 10 and rvol >= 1.5',
    'rsi(14) crosses above 30 within 3',
    'close crosses below ema(20)',
    'pct_from_sma(50) between -2 and 2',
    'sector = "Energy" and exchange in ("NYSE", "NASDAQ")',
    'close > 5 and (rsi(7) < 20 or gap_pct <= -3) and not (sector != "Utilities" or days_to_earnings <= 5)',
    'change_pct(5) >= 3 and not exchange not in ("NYSE", "NASDAQ")',
  ])('prints %s back as itself from its rows', (formula) => {
    const rows = rowsOf(formula);
    expect(rowsToGroups(rows, CATALOG).problems.size).toBe(0);
    expect(formulaOfRows(rows, CATALOG)).toBe(formula);
  });

  it('puts each condition in its group, with the defaults filled in', () => {
    const rows = rowsOf('rsi < 30 and (close > sma or rvol >= 2) and not sector = "Energy"');
    expect(rows.all.map((row) => [row.field, row.params, row.op, row.right.value])).toEqual([['rsi', [14], '<', 30]]);
    expect(rows.any.map((row) => [row.field, row.op, row.right.kind, row.right.field, row.right.params])).toEqual([
      ['close', '>', 'field', 'sma', [50]],
      ['rvol', '>=', 'number', expect.any(String), expect.any(Array)],
    ]);
    expect(rows.none.map((row) => [row.field, row.op, row.text])).toEqual([['sector', 'is', 'Energy']]);
  });

  it('says what an incomplete row lacks, and leaves it out of the formula', () => {
    const blank = newRow(CATALOG, 'rsi');
    expect(rowToCondition(blank, CATALOG)).toEqual({ ok: false, problem: 'Enter a value.' });
    expect(rowToCondition({ ...blank, params: [''] }, CATALOG)).toEqual({ ok: false, problem: 'Enter the period of RSI.' });
    expect(rowToCondition({ ...blank, params: [500], right: { ...blank.right, value: 30 } }, CATALOG)).toEqual({ ok: false, problem: 'RSI: period must be a whole number from 2 to 100.' });
    expect(rowToCondition({ ...blank, op: 'between', low: 30 }, CATALOG)).toEqual({ ok: false, problem: 'Enter the low and the high value.' });
    expect(rowToCondition({ ...blank, op: 'crosses above', right: { ...blank.right, value: 30 }, within: 0 }, CATALOG)).toEqual({
      ok: false,
      problem: 'Within must be a whole number of sessions from 1 to 250.',
    });
    const sector = newRow(CATALOG, 'sector');
    expect(rowToCondition({ ...sector, op: 'in', text: ' , ' }, CATALOG)).toEqual({ ok: false, problem: 'Enter at least one value.' });
    const rows: BuilderRows = { all: [{ ...blank, right: { ...blank.right, value: 30 } }, newRow(CATALOG, 'close')], any: [], none: [] };
    const { groups, problems } = rowsToGroups(rows, CATALOG);
    expect(groups.all).toHaveLength(1);
    expect([...problems.values()]).toEqual(['Enter a value.']);
    expect(formulaOfRows(rows, CATALOG)).toBe('rsi(14) > 30');
  });

  it('keeps the operator when the field changes kind only when it still applies', () => {
    const row = { ...newRow(CATALOG, 'rsi'), op: 'between' as const };
    expect(withField(row, CATALOG, 'adx')).toMatchObject({ field: 'adx', params: [14], op: 'between' });
    expect(withField(row, CATALOG, 'sector')).toMatchObject({ field: 'sector', params: [], op: 'is' });
    expect(withField(withField(row, CATALOG, 'sector'), CATALOG, 'pct_below_high')).toMatchObject({ params: [21], op: '>' });
  });

  it('reads a list of text values separated by commas, and one value whole', () => {
    const row = { ...newRow(CATALOG, 'exchange'), op: 'not in' as const, text: 'NYSE, NASDAQ ,' };
    expect(rowToCondition(row, CATALOG)).toEqual({ ok: true, value: { kind: 'in', left: { field: 'exchange', params: [] }, values: ['NYSE', 'NASDAQ'], negated: true } });
    expect(rowToCondition({ ...row, op: 'is', text: ' Real Estate ' }, CATALOG)).toMatchObject({ ok: true, value: { values: ['Real Estate'], negated: false } });
  });
});

describe('the formula as the user types it', () => {
  it('answers the groups, the nesting the groups cannot show, or the mistake and where it is', () => {
    expect(checkFormula('  ')).toEqual({ state: 'empty' });
    expect(checkFormula('rsi < 30 and close > sma(200)')).toMatchObject({ state: 'groups', formula: 'rsi(14) < 30 and close > sma(200)' });
    expect(checkFormula('(rsi < 30 or rvol > 2) and (close > 5 or gap_pct < -2)')).toMatchObject({ state: 'nested' });
    expect(checkFormula('rsx(14) < 30')).toEqual({ state: 'error', message: 'Unknown field "rsx" at position 0 (did you mean rsi?)', position: 0 });
    expect(checkFormula('rsi(14) < ')).toMatchObject({ state: 'error', position: 10 });
  });

  it('cuts a long formula around the mistake and keeps the caret under it', () => {
    expect(excerptAt('rsi(14) < 3O', 11)).toEqual({ excerpt: 'rsi(14) < 3O', caret: 11 });
    const long = `${'close > 1 and '.repeat(10)}rsx < 3`;
    const { excerpt, caret } = excerptAt(long, long.indexOf('rsx'));
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.slice(caret, caret + 3)).toBe('rsx');
    expect(excerptAt('a\nb', 2)).toEqual({ excerpt: 'a b', caret: 2 });
  });
});
