import { MantineProvider } from '@mantine/core';
import { CSV_BOM, parseCsv, toCsv } from '@signalboard/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatFraction, formatShare } from '../../components/trade-ideas/idea-format';
import { scorecard, scorecardGroup, scoredBuyGroup } from '../../test/crypto-fixtures';
import { cssVariablesResolver, theme } from '../../theme';
import { HORIZON_LABEL, HORIZONS, SCORECARD_CSV, scorecardRows } from './crypto-scorecard-csv';
import { ScorecardBody } from './crypto-scorecard-panel';

afterEach(cleanup);

// BTC's benchmark over 35 of the 36 scored at 7 days: the table says so, "(N 35)".
const CARD = scorecard([
  scorecardGroup({ horizon: 'Short', label: 'Sell', signals: 3 }),
  scoredBuyGroup(35),
  scorecardGroup({ horizon: 'Long', label: 'Hold', signals: 1, origin: 'live', ruleVersion: 'crypto@1.1.0' }),
  scorecardGroup({ horizon: 'Long', label: 'Buy', signals: 2 }),
]);

const HEADER = [
  'Horizon',
  'Origin',
  'Rule version',
  'Signal',
  'Signal changes',
  'After (days)',
  'N',
  'Pending',
  'Mean',
  'Mean low (95%)',
  'Mean high (95%)',
  'Share positive',
  'Share positive low (95%)',
  'Share positive high (95%)',
  'Baseline',
  'Excess',
  'Benchmark',
  'Benchmark mean',
  'Benchmark N',
  'Excess over benchmark',
  'Greyed (fewer than 30 signals)',
];

function readBack() {
  const text = toCsv(SCORECARD_CSV, scorecardRows(CARD));
  expect(text.startsWith(CSV_BOM)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return parseCsv(text).map((record) => record.fields);
}

describe('the crypto scorecard CSV', () => {
  it('has a row per label and k days, in the tabs’ and tables’ order, figures unformatted, intervals as low and high', () => {
    const [header, ...rows] = readBack();
    expect(header).toEqual(HEADER);
    expect(rows.map((row) => row.slice(0, 6).join(' '))).toEqual([
      'Short-term Replayed crypto@1.0.0 Buy 40 7',
      'Short-term Replayed crypto@1.0.0 Buy 40 30',
      'Short-term Replayed crypto@1.0.0 Buy 40 90',
      'Short-term Replayed crypto@1.0.0 Sell 3 7',
      'Short-term Replayed crypto@1.0.0 Sell 3 30',
      'Short-term Replayed crypto@1.0.0 Sell 3 90',
      'Long-term Live crypto@1.1.0 Hold 1 7',
      'Long-term Live crypto@1.1.0 Hold 1 30',
      'Long-term Live crypto@1.1.0 Hold 1 90',
      'Long-term Replayed crypto@1.0.0 Buy 2 7',
      'Long-term Replayed crypto@1.0.0 Buy 2 30',
      'Long-term Replayed crypto@1.0.0 Buy 2 90',
    ]);
    expect(rows[0]!.slice(6)).toEqual(['36', '4', '0.0123', '-0.004', '0.0281', '0.5833', '0.4217', '0.7288', '0.0051', '0.0072', 'BTC', '0.008', '35', '0.0043', 'false']);
    expect(rows[1]!.slice(6)).toEqual(['12', '28', '-0.02', '', '', '0.4167', '0.1933', '0.6806', '', '', 'BTC', '', '12', '', 'true']);
    expect(rows[2]!.slice(6)).toEqual(['0', '40', '', '', '', '', '', '', '', '', 'BTC', '', '0', '', 'true']);
  });

  it('matches the tables on screen row by row, tab by tab', async () => {
    const [, ...rows] = readBack();
    render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <ScorecardBody card={CARD} />
      </MantineProvider>,
    );
    const shown: string[][] = [];
    for (const horizon of HORIZONS) {
      await userEvent.click(screen.getByRole('tab', { name: HORIZON_LABEL[horizon] }));
      const tabPanel = await screen.findByRole('tabpanel', { name: HORIZON_LABEL[horizon] });
      for (const table of within(tabPanel).queryAllByRole('table')) {
        for (const tr of within(table).getAllByRole('row').slice(1)) shown.push([table.getAttribute('aria-label')!, ...within(tr).getAllByRole('cell').map((td) => td.textContent!)]);
      }
    }
    expect(shown).toHaveLength(rows.length);
    const fraction = (cell: string) => formatFraction(cell === '' ? null : Number(cell));
    const share = (cell: string) => (cell === '' ? '—' : formatShare(Number(cell)));
    rows.forEach((row, index) => {
      const [horizon, origin, ruleVersion, , , days, n, pending, mean, meanLow, meanHigh, positive, positiveLow, positiveHigh, baseline, excess, , benchmarkMean, benchmarkN, benchmarkExcess] = row;
      const [table, after, nCell, pendingCell, meanCell, shareCell, baselineCell, excessCell, benchmarkCell, benchmarkExcessCell] = shown[index]!;
      expect(table).toBe(`${horizon} · ${origin} · ${ruleVersion} scorecard`);
      expect(after).toBe(`${days} days`);
      expect(nCell!.startsWith(n!)).toBe(true);
      expect(pendingCell).toBe(pending);
      expect(meanCell).toBe(meanLow ? `${fraction(mean!)} (${fraction(meanLow)} to ${fraction(meanHigh!)})` : fraction(mean!));
      expect(shareCell).toBe(positive ? `${share(positive)} (${share(positiveLow!)}–${share(positiveHigh!)})` : '—');
      expect(baselineCell).toBe(fraction(baseline!));
      expect(excessCell).toBe(fraction(excess!));
      expect(benchmarkCell).toBe(`${fraction(benchmarkMean!)}${benchmarkN !== n ? ` (N ${benchmarkN})` : ''}`);
      expect(benchmarkExcessCell).toBe(fraction(benchmarkExcess!));
    });
  });
});
