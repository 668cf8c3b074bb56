import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Code.layer.css';
import { Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { TONE } from '../../theme';

/** A signing secret just made (by a create or a rotation), with the server's msg that it is shown only once. */
export interface ShownSecret {
  name: string;
  secret: string;
  msg: string;
}

/**
 * The signing secret, once: monospace, with a Copy button; "Done" closes it (a click beside the
 * modal does not, so the secret is not lost by accident). The secret lives in the card's state
 * only, and goes with it when this closes.
 */
export function WebhookSecretModal({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  return (
    <Modal opened onClose={onDone} title="Signing secret" size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">{shown.msg}</Text>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
          {shown.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={shown.secret}>
            {({ copied, copy }) => (
              <Button variant="default" color={copied ? TONE.success : undefined} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onDone} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
