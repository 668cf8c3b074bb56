import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { FavoritesList, importedCloseLabel } from './favorites-list';

const ROWS = [
  { symbol: 'GOOG', description: 'Google Inc' },
  { symbol: 'AAPL', description: 'Apple Inc.' },
];

describe('FavoritesList prices', () => {
  it('says when a price is an imported file’s last close, not a quote', () => {
    const closeOfOct14 = Date.parse('2008-10-14T21:00:00Z') / 1000;
    renderScreen(
      <FavoritesList
        favorites={ROWS}
        saved={ROWS}
        quotesLoading={false}
        onRemove={() => undefined}
        quotes={{
          quotes: [
            { symbol: 'GOOG', current_price: 362.71, change: -43.42, percent_change: -10.69, timestamp: closeOfOct14, stale: false, last_bar: true },
            { symbol: 'AAPL', current_price: 175, change: 1, percent_change: 0.57, timestamp: closeOfOct14, stale: false },
          ],
          failed: [],
        }}
      />,
    );
    expect(importedCloseLabel(closeOfOct14)).toBe('Imported close, Oct 14, 2008');
    const [goog, aapl] = screen.getAllByRole('listitem');
    expect(goog).toHaveTextContent('362.71');
    expect(goog).toHaveTextContent('Imported close, Oct 14, 2008');
    expect(aapl).not.toHaveTextContent('Imported close');
  });
});
