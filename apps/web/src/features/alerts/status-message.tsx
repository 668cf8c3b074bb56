import { Text } from '@mantine/core';
import { TONE } from '../../theme';

/** The three status colours of the alert screen's messages (spec §8 "SMS"). */
export type StatusTone = 'success' | 'danger' | 'info';
export interface StatusMessage {
  text: string;
  tone: StatusTone;
}

/** A failed call's message for the user: the server's msg (or the browser's refusal), else a general hint. */
export const messageOf = (error: unknown) => (error instanceof Error && error.message.trim() ? error.message.trim() : 'please try again later.');

const COLOR: Record<StatusTone, string> = { success: TONE.success, danger: TONE.failure, info: TONE.info };

/**
 * A card's message line, in its status colour. It is a live region that is always present (so
 * screen readers announce each new message) and names its tone in a data attribute for tests.
 */
export function StatusLine({ status, label }: { status: StatusMessage | null; label: string }) {
  return (
    <Text size="sm" fw={500} c={status ? COLOR[status.tone] : undefined} role="status" aria-label={label} data-tone={status?.tone} mih="1.5em">
      {status?.text ?? ''}
    </Text>
  );
}
