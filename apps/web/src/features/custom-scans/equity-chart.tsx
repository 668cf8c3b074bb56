import { Box, useComputedColorScheme } from '@mantine/core';
import { ColorType, createChart, LineSeries, LineStyle } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { formatSignedPercent } from '../../components/format';
import type { EquityPoint } from './backtest-model';

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
 * The backtest's equity curve (equal-weight entries held 21 sessions) as its return since the start,
 * in percent, with the zero line dashed (TradingView lightweight-charts, loaded with a result only).
 * `label` is its text alternative. Redrawn on a colour-scheme change.
 */
export default function EquityChart({ equity, label }: { equity: readonly EquityPoint[]; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const color = (token: string) => resolveColor(element, token);
    const border = color('--mantine-color-default-border');
    const chart = createChart(element, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: color('--mantine-color-text'), attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { color: border } },
      rightPriceScale: { borderColor: border },
      timeScale: { borderColor: border },
      handleScroll: false,
      handleScale: false,
    });
    const series = chart.addSeries(LineSeries, {
      color: color('--mantine-color-brand-text'),
      lineWidth: 2,
      priceLineVisible: false,
      priceFormat: { type: 'custom', formatter: (percent: number) => formatSignedPercent(percent), minMove: 0.01 },
    });
    series.setData(equity.map((point) => ({ time: point.date, value: (point.value - 1) * 100 })));
    series.createPriceLine({ price: 0, color: color('--mantine-color-dimmed'), lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: '' });
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [equity, scheme]);

  return <Box ref={host} h={200} role="img" aria-label={label} />;
}
