import { ConfirmDialog } from '../../components/confirm-dialog';
import { notifyError, notifySuccess } from '../../components/notify';
import { messageOf } from '../../lib/client';

/** Runs an admin call and says how it went: the server's `msg` as a success, or why it failed. */
export async function notifyOutcome(call: Promise<{ msg: string }>): Promise<void> {
  try {
    notifySuccess((await call).msg);
  } catch (error) {
    notifyError(messageOf(error));
  }
}

/**
 * The confirm step of an admin card's row action (Users, Invitations, Data): `pending` is what the
 * admin asked to act on (null: nothing asked). Confirm closes the dialog, then runs `onConfirm` on it;
 * Cancel only closes it.
 */
export function ConfirmAction<T>(props: { pending: T | null; question: (pending: T) => string; confirmLabel: string; onClose: () => void; onConfirm: (pending: T) => void }) {
  const { pending, onClose, onConfirm } = props;
  return (
    <ConfirmDialog
      opened={pending !== null}
      question={pending === null ? '' : props.question(pending)}
      confirmLabel={props.confirmLabel}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        if (pending !== null) onConfirm(pending);
      }}
    />
  );
}
