// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Modal, Text } from '@mantine/core';

/** A confirm dialog (the spec's confirm()) with the question as its text. */
export function ConfirmDialog(props: {
  opened: boolean;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title="Please confirm" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Text mb="lg">{props.question}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button onClick={props.onConfirm} data-autofocus>
          {props.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

export default ConfirmDialog;
