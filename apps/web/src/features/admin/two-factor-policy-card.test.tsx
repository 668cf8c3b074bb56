import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { REQUIRE_TWO_FACTOR_LABEL, TwoFactorPolicyCard } from './two-factor-policy-card';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

describe('TwoFactorPolicyCard', () => {
  it('requires two-factor of everyone after a confirm; Cancel changes nothing', async () => {
    const api = mockApi({
      'GET admin/settings': inTurn({ body: { two_factor_required: false } }, { body: { two_factor_required: true } }),
      'POST admin/require_two_factor': { body: { msg: 'Two-factor sign-in is required.' } },
    });
    renderScreen(
      <QueryClientProvider client={new QueryClient()}>
        <TwoFactorPolicyCard />
      </QueryClientProvider>,
      '/dashboard/admin',
    );
    const toggle = await screen.findByRole('switch', { name: REQUIRE_TWO_FACTOR_LABEL });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('admin/require_two_factor')).toEqual([]);

    await userEvent.click(toggle);
    await userEvent.click(await screen.findByRole('button', { name: 'Require it' }));
    expect(await screen.findByText('Two-factor sign-in is required.')).toBeInTheDocument();
    expect(await screen.findByRole('switch', { name: REQUIRE_TWO_FACTOR_LABEL, checked: true })).toBeInTheDocument();
    expect(api.callsTo('admin/require_two_factor').map((call) => call.body)).toEqual([{ required: true }]);
    expect(api.unhandled).toEqual([]);
  });
});
