import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/client';
import { renderScreen } from '../../test/render';
import { ConfirmAction, notifyOutcome } from './confirm-action';

afterEach(() => notifications.clean());

/** A row's button that asks, as the admin cards do. */
function Asking({ onConfirm }: { onConfirm: (symbol: string) => void }) {
  const [pending, setPending] = useState<string | null>(null);
  return (
    <>
      <button type="button" onClick={() => setPending('SPY')}>
        Remove SPY
      </button>
      <ConfirmAction pending={pending} question={(symbol) => `Remove ${symbol}?`} confirmLabel="Remove" onClose={() => setPending(null)} onConfirm={onConfirm} />
    </>
  );
}

describe('ConfirmAction', () => {
  it('asks with the question of what is pending; Cancel runs nothing, Confirm closes and runs it once', async () => {
    const onConfirm = vi.fn();
    renderScreen(<Asking onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove SPY' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent('Remove SPY?');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onConfirm).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Remove SPY' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onConfirm.mock.calls).toEqual([['SPY']]);
  });

  it('notifyOutcome shows the server’s msg, or why the call failed', async () => {
    renderScreen(<div />);
    await notifyOutcome(Promise.resolve({ msg: "Removed SPY's imported prices." }));
    expect(await screen.findByText("Removed SPY's imported prices.")).toBeInTheDocument();
    await notifyOutcome(Promise.reject(new ApiError('SPY has no imported prices.', 404)));
    expect(await screen.findByText('SPY has no imported prices.')).toBeInTheDocument();
  });
});
