import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { IdeaStampBadges } from './idea-badges';

describe('IdeaStampBadges', () => {
  it('marks an idea whose figures come from an imported price file', () => {
    renderScreen(<IdeaStampBadges origin="replayed" entryPending={false} imported={{ symbol: 'ZZDATA' }} />);
    expect(screen.getByRole('img', { name: 'ZZDATA: imported prices' })).toHaveTextContent('Imported');
    expect(screen.getByText('Replayed')).toBeInTheDocument();
  });

  it('shows no marker for the source\'s figures', () => {
    renderScreen(<IdeaStampBadges origin="live" entryPending />);
    expect(screen.queryByRole('img', { name: /imported prices/ })).toBeNull();
    expect(screen.getByText('Pending entry')).toBeInTheDocument();
  });
});
