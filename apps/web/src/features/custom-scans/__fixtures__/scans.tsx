/** What the custom-scan calls answer in the screen's unit tests, and the screen rendered on a mock API. */
import type { ListScansResponse, RunScanResponse, SavedScan, ScanGroupsOutput, ScanTemplate } from '@signalboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure } from '@testing-library/react';
import { vi } from 'vitest';
import { mockApi, type MockAnswer } from '../../../test/mock-api';
import { giveElementsABox, renderScreen } from '../../../test/render';
import { CustomScansScreen } from '../custom-scans-screen';
import { CATALOG } from './catalog';

export const FIELDS = { fields: CATALOG };

/** The builder's groups of 'rsi(14) < 30', the scan the screen starts with. */
export const RSI_GROUPS: ScanGroupsOutput = { all: [{ kind: 'compare', left: { field: 'rsi', params: [14] }, op: '<', right: { kind: 'number', value: 30 } }], any: [], none: [] };

export const RUN_ANSWER: RunScanResponse = {
  universe: 'sp500',
  as_of: '2026-11-20',
  source: 'file',
  formula: 'rsi(14) < 30',
  conditions: structuredClone(RSI_GROUPS),
  columns: [{ key: 'rsi(14)', field: 'rsi', params: [14], label: 'RSI(14)', unit: 'points' }],
  universe_size: 5,
  evaluated: 4,
  missing: ['SQ'],
  matches: 3,
  rows: [
    { symbol: 'MSFT', name: 'Microsoft Corporation', price: 400, change_pct: 0.5, values: [25.1] },
    { symbol: 'AAPL', name: 'Apple Inc.', price: 175, change_pct: -1.25, values: [28.44] },
    { symbol: 'NVDA', name: 'NVIDIA Corporation', price: 180, change_pct: null, values: [null] },
  ],
};

export const SAVED: SavedScan = {
  id: 7,
  name: 'Oversold',
  universe: 'us',
  formula: 'rsi(14) < 25 and close > sma(200)',
  conditions: {
    all: [
      { kind: 'compare', left: { field: 'rsi', params: [14] }, op: '<', right: { kind: 'number', value: 25 } },
      { kind: 'compare', left: { field: 'close', params: [] }, op: '>', right: { kind: 'field', ref: { field: 'sma', params: [200] } } },
    ],
    any: [],
    none: [],
  },
  version: 1,
  created_at: '2026-11-18T14:00:00.000Z',
  updated_at: '2026-11-19T14:00:00.000Z',
};

export const NESTED_SAVED: SavedScan = {
  ...SAVED,
  id: 8,
  name: 'Two lists',
  formula: '(rsi(14) < 30 or rvol >= 2) and (close > 5 or gap_pct < -2)',
  conditions: null,
};

export const TEMPLATE: ScanTemplate = {
  key: 'gap-down-reversal',
  name: 'Gap-down reversal',
  description: 'Opened at least 2 % below the previous close, then closed above it.',
  universe: 'sp500',
  formula: 'gap_pct <= -2 and change_pct(1) > 0',
  conditions: {
    all: [
      { kind: 'compare', left: { field: 'gap_pct', params: [] }, op: '<=', right: { kind: 'number', value: -2 } },
      { kind: 'compare', left: { field: 'change_pct', params: [1] }, op: '>', right: { kind: 'number', value: 0 } },
    ],
    any: [],
    none: [],
  },
};

export const LIST: ListScansResponse = { scans: [SAVED, NESTED_SAVED], templates: [TEMPLATE], limit: 50 };

/**
 * How long a test waits for the screen's first render: the workspace mounts once the catalogue has
 * loaded, which takes over a second in jsdom beside other test workers (Testing Library's default).
 */
export const FIRST_RENDER = { timeout: 10_000 };
// Every later wait (a table after Run, a dialog) gets more than the default second too, for the same reason.
configure({ asyncUtilTimeout: 5_000 });

type Route = MockAnswer | ((url: URL, init: RequestInit | undefined) => MockAnswer | Promise<MockAnswer>);

/** What GET api/scans/{id}/backtest answers for a scan without a backtest. */
export const NO_BACKTEST: MockAnswer = { status: 404, body: { msg: 'No backtest of this scan yet.' } };

/**
 * The screen on a mock API that answers the catalogue, the list and the saved scans' backtests (none
 * yet) unless given, and the routes given.
 */
export function renderScans(routes: Record<string, Route> = {}) {
  const api = mockApi({ 'GET scans/fields': { body: FIELDS }, 'GET scans': { body: LIST }, 'GET scans/7/backtest': NO_BACKTEST, 'GET scans/8/backtest': NO_BACKTEST, ...routes });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(
    <QueryClientProvider client={client}>
      <CustomScansScreen />
    </QueryClientProvider>,
  );
  return api;
}

/**
 * A wide screen (the table) or a phone (cards), boxes for the Selects' dropdowns, and the
 * document.fonts jsdom lacks (the Formula's autosizing Textarea listens to it).
 */
export function screenWidth(wide: boolean) {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({ matches: wide && query.includes('min-width'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList,
  );
  giveElementsABox();
}
