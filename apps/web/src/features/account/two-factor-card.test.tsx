import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { CODE_REQUIRED } from './two-factor-setup';
import { TwoFactorCard } from './two-factor-card';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const OFF = { enabled: false, since: null, recovery_codes_left: 0, required: false };
const ON = { enabled: true, since: '2026-12-04T10:00:00.000Z', recovery_codes_left: 10, required: false };
const CODES = ['aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'iiiii-jjjjj', 'kkkkk-lllll', 'mmmmm-nnnnn', 'ooooo-ppppp', 'qqqqq-rrrrr', 'sssss-ttttt'];
const SETUP = { manual_key: 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP', otpauth_uri: 'otpauth://totp/Signalboard:me%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Signalboard' };

const renderCard = () =>
  renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <TwoFactorCard />
    </QueryClientProvider>,
    '/dashboard/account',
  );

describe('TwoFactorCard', { timeout: 15_000 }, () => {
  it('turns on: QR code and key, a code, then the recovery codes once, Done only after "I have saved them"', async () => {
    let enabled = false;
    const api = mockApi({
      'GET two_factor': () => ({ body: enabled ? ON : OFF }),
      'POST two_factor/setup': { body: SETUP },
      'POST two_factor/enable': inTurn({ status: 400, body: { msg: 'That code is not right.' } }, () => {
        enabled = true;
        return { body: { msg: 'Two-factor sign-in is on. Save your recovery codes: they are shown only this once.', recovery_codes: CODES } };
      }),
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('img', { name: 'QR code of your two-factor key' })).toBeInTheDocument();
    expect(screen.getByTestId('two-factor-key')).toHaveTextContent(SETUP.manual_key);
    const field = screen.getByLabelText(/Code from your app/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');

    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(CODE_REQUIRED)).toBeInTheDocument();
    await userEvent.type(field, '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('That code is not right.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, '222222');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have saved these recovery codes' }));
    expect(done).toBeEnabled();
    await userEvent.click(done);
    expect(await screen.findByText('10 of 10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(api.callsTo('two_factor/enable').map((call) => call.body)).toEqual([{ code: '111111' }, { code: '222222' }]);
    expect(api.unhandled).toEqual([]);
  });

  it('turns off with a code', async () => {
    let disabled = false;
    const api = mockApi({
      'GET two_factor': () => ({ body: disabled ? OFF : ON }),
      'POST two_factor/disable': () => {
        disabled = true;
        return { body: { msg: 'Two-factor sign-in is off.' } };
      },
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    await userEvent.type(screen.getByLabelText('Code from your app, or a recovery code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByText('Two-factor sign-in is off.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeInTheDocument();
    expect(api.callsTo('two_factor/disable').map((call) => call.body)).toEqual([{ code: '123456' }]);
  });

  it('while the installation requires it: no Turn off, and it says why', async () => {
    mockApi({ 'GET two_factor': { body: { ...ON, required: true } } });
    renderCard();
    expect(await screen.findByText('Your installation requires two-factor sign-in, so it cannot be turned off.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New recovery codes' })).toBeInTheDocument();
  });

  it('says so, with a Retry, when the state cannot be loaded', async () => {
    mockApi({ 'GET two_factor': inTurn({ status: 503, body: { msg: 'The database is unavailable right now.' } }, { body: OFF }) });
    renderCard();
    expect(await screen.findByText('The database is unavailable right now.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Turn on' })).toBeInTheDocument());
  });
});
