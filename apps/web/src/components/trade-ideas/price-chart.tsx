import { Box, useComputedColorScheme } from '@mantine/core';
import type { DailyBarRow } from '@signalboard/core';
import { CandlestickSeries, ColorType, createChart, createSeriesMarkers, CrosshairMode, LineStyle } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { TONE } from '../../theme';
import type { ChartLine, ChartMarker, ChartTone } from './chart-model';

/** The theme token each tone is drawn in (the same tokens as text, so they pass contrast in both schemes). */
const TONE_TOKEN: Record<ChartTone, string> = {
  entry: '--mantine-color-brand-text',
  gain: `--mantine-color-${TONE.gain}-text`,
  loss: `--mantine-color-${TONE.loss}-text`,
  neutral: '--mantine-color-dimmed',
};

/** A CSS variable's colour as the canvas can use it (rgb()), resolved through any var() chain. */
function resolveColor(host: HTMLElement, token: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${token})`;
  probe.style.display = 'none';
  host.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/**
 * An idea's daily candles with its levels as labelled price lines and its events as markers
 * (TradingView lightweight-charts, loaded with the detail only). Redrawn on a colour-scheme change.
 */
export default function PriceChart({ bars, lines, markers, label, precision = 2 }: { bars: DailyBarRow[]; lines: ChartLine[]; markers: ChartMarker[]; label: string; precision?: number }) {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const color = (token: string) => resolveColor(element, token);
    const tone = (name: ChartTone) => color(TONE_TOKEN[name]);
    const chart = createChart(element, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: color('--mantine-color-text'), attributionLogo: false },
      grid: { vertLines: { color: color('--mantine-color-default-border') }, horzLines: { color: color('--mantine-color-default-border') } },
      rightPriceScale: { borderColor: color('--mantine-color-default-border') },
      // Room right of the last bar for its marker's text ("Matched", "Signal").
      timeScale: { borderColor: color('--mantine-color-default-border'), rightOffsetPixels: 48 },
      crosshair: { mode: CrosshairMode.Normal },
    });
    const up = tone('gain');
    const down = tone('loss');
    const series = chart.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      wickUpColor: up,
      wickDownColor: down,
      borderVisible: false,
      // A coin at 0.08 needs more than the default 2 decimals on its scale.
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
    });
    series.setData(bars.map((bar) => ({ time: bar.date, open: bar.open, high: bar.high, low: bar.low, close: bar.close })));
    for (const level of lines) {
      series.createPriceLine({
        price: level.price,
        title: level.title,
        color: tone(level.tone),
        lineWidth: 1,
        lineStyle: level.dashed ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: true,
      });
    }
    const known = new Set(bars.map((bar) => bar.date));
    createSeriesMarkers(
      series,
      markers.filter((marker) => known.has(marker.date)).map((marker) => ({ time: marker.date, position: marker.position, shape: marker.shape, color: tone(marker.tone), text: marker.text })),
    );
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [bars, lines, markers, scheme, precision]);

  return <Box ref={host} h={320} role="img" aria-label={label} />;
}
