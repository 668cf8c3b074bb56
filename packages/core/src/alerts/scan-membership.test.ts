import { describe, expect, it } from 'vitest';
import { nextScanMembership, SCAN_MEMBERS_MAX_GAP_DAYS } from './scan-membership';

const previous = (symbols: string[], session = '2026-12-02', scanVersion = 1) => ({ session, scanVersion, symbols });

describe('nextScanMembership (CUSTOM_SCAN)', () => {
  it('records without entering on a first pass', () => {
    expect(nextScanMembership({ previous: undefined, session: '2026-12-03', scanVersion: 1, matches: ['MSFT', 'AAPL', 'MSFT'], missing: [] })).toEqual({
      symbols: ['AAPL', 'MSFT'],
      entered: [],
      first: true,
    });
  });

  it('enters the symbols that match now and were not members, in the run\'s order; those staying in do not enter again', () => {
    expect(nextScanMembership({ previous: previous(['AAPL', 'MSFT']), session: '2026-12-03', scanVersion: 1, matches: ['NVDA', 'AAPL', 'AMD'], missing: [] })).toEqual({
      symbols: ['AAPL', 'AMD', 'NVDA'],
      entered: ['NVDA', 'AMD'],
      first: false,
    });
    expect(nextScanMembership({ previous: previous(['AAPL']), session: '2026-12-03', scanVersion: 1, matches: ['AAPL'], missing: [] }).entered).toEqual([]);
  });

  it('enters a symbol again after it left', () => {
    const left = nextScanMembership({ previous: previous(['AAPL']), session: '2026-12-03', scanVersion: 1, matches: [], missing: [] });
    expect(left).toEqual({ symbols: [], entered: [], first: false });
    const back = nextScanMembership({ previous: { session: '2026-12-03', scanVersion: 1, symbols: left.symbols }, session: '2026-12-04', scanVersion: 1, matches: ['AAPL'], missing: [] });
    expect(back.entered).toEqual(['AAPL']);
  });

  it('keeps a member the run could not read, so it does not enter again when it is read next', () => {
    const unread = nextScanMembership({ previous: previous(['AAPL', 'MSFT']), session: '2026-12-03', scanVersion: 1, matches: ['MSFT'], missing: ['AAPL', 'ZZZ'] });
    expect(unread).toEqual({ symbols: ['AAPL', 'MSFT'], entered: [], first: false });
    expect(nextScanMembership({ previous: { session: '2026-12-03', scanVersion: 1, symbols: unread.symbols }, session: '2026-12-04', scanVersion: 1, matches: ['AAPL', 'MSFT'], missing: [] }).entered).toEqual([]);
  });

  it('starts again (records only) after the scan was edited, after a long gap, and never compares with a later session', () => {
    expect(nextScanMembership({ previous: previous(['AAPL'], '2026-12-02', 1), session: '2026-12-03', scanVersion: 2, matches: ['NVDA'], missing: [] })).toMatchObject({ entered: [], first: true });
    const day = (offset: number) => new Date(Date.UTC(2026, 11, 2 + offset)).toISOString().slice(0, 10);
    expect(nextScanMembership({ previous: previous([], day(0)), session: day(SCAN_MEMBERS_MAX_GAP_DAYS), scanVersion: 1, matches: ['NVDA'], missing: [] }).entered).toEqual(['NVDA']);
    expect(nextScanMembership({ previous: previous([], day(0)), session: day(SCAN_MEMBERS_MAX_GAP_DAYS + 1), scanVersion: 1, matches: ['NVDA'], missing: [] })).toMatchObject({ entered: [], first: true });
    expect(nextScanMembership({ previous: previous([], '2026-12-04'), session: '2026-12-03', scanVersion: 1, matches: ['NVDA'], missing: [] }).first).toBe(true);
  });
});
