import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { importedPricesHint, MarketBadges } from './market-badges';

const HEALTH = { status: 'ok', version: '0.1.0', market_data: 'simulated', database: 'embedded', mail: 'outbox', sms: 'outbox', time: 1_700_000_000 };

function renderBadges(health: object, narrow = false) {
  const api = mockApi({ 'GET health': { body: health } });
  renderScreen(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MarketBadges narrow={narrow} />
    </QueryClientProvider>,
  );
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe('MarketBadges', () => {
  it('shows "Imported prices" beside "Simulated market" when the installation has imported symbols', async () => {
    const api = renderBadges({ ...HEALTH, imported_symbols: 3 });
    expect(await screen.findByText('Imported prices')).toBeInTheDocument();
    expect(screen.getByText('Simulated market')).toBeInTheDocument();
    expect(importedPricesHint(3)).toBe('Daily prices of 3 symbols come from imported price files (Administration → Data); their figures say "imported prices".');
    expect(importedPricesHint(1)).toMatch(/^Daily prices of 1 symbol come /);
    expect(api.unhandled).toEqual([]);
  });

  it('is an icon named "Imported prices" on a phone, where the top bar has no room for the words', async () => {
    renderBadges({ ...HEALTH, imported_symbols: 2 }, true);
    expect(await screen.findByRole('img', { name: 'Imported prices' })).toBeInTheDocument();
    expect(screen.queryByText('Imported prices')).toBeNull();
  });

  it('shows no imported badge without imported symbols, nor the simulated one on live data', async () => {
    renderBadges({ ...HEALTH, market_data: 'live', imported_symbols: 0 });
    await vi.waitFor(() => expect(screen.queryByText('Simulated market')).toBeNull());
    expect(screen.queryByText(/^Imported/)).toBeNull();
  });
});
