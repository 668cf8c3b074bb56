/**
 * lightweight-charts as jsdom can run it (the real one draws on a canvas jsdom does not have): it
 * records what the chart is asked to draw in `chartCalls`. A test file mocks the library with it:
 *   vi.mock('lightweight-charts', () => import('../../test/chart-mock'));
 */

/** What the chart was asked to draw since the last reset: its bars, its price lines and its markers. */
export const chartCalls = {
  bars: 0,
  priceLines: [] as { title: string; price: number }[],
  markers: [] as { time: string; text: string }[][],
};

export function resetChartCalls(): void {
  chartCalls.bars = 0;
  chartCalls.priceLines = [];
  chartCalls.markers = [];
}

export const CandlestickSeries = {};
export const ColorType = { Solid: 'solid' };
export const CrosshairMode = { Normal: 0 };
export const LineStyle = { Solid: 0, Dashed: 2 };

export function createChart() {
  return {
    addSeries: () => ({
      setData: (bars: unknown[]) => void (chartCalls.bars = bars.length),
      createPriceLine: (line: { title: string; price: number }) => void chartCalls.priceLines.push({ title: line.title, price: line.price }),
    }),
    timeScale: () => ({ fitContent: () => undefined }),
    remove: () => undefined,
  };
}

export function createSeriesMarkers(_series: unknown, markers: { time: string; text: string }[]): void {
  chartCalls.markers.push(markers);
}
