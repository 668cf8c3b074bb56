import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Code.layer.css';
import { Alert, Button, Checkbox, Code, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadText } from '../../lib/download';
import { TONE } from '../../theme';

export const RECOVERY_CODES_FILENAME = 'signalboard-recovery-codes.txt';

/** The file "Download" saves: the codes one a line, with what they are for. */
export const recoveryCodesText = (codes: readonly string[]) =>
  ['Signalboard two-factor recovery codes', 'Each code signs you in once, in place of a code from your authenticator app.', '', ...codes, ''].join('\n');

/**
 * The recovery codes just made, shown this once (only their hashes are kept): copy, download as
 * .txt, and an "I have saved them" acknowledgement before Done.
 */
export function RecoveryCodesPanel({ codes, msg, onDone }: { codes: readonly string[]; msg: string; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const all = codes.join('\n');
  return (
    <Stack gap="md">
      <Alert color={TONE.info} title="Save your recovery codes">
        {msg} Each one signs you in once if you lose your phone.
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" aria-label="Recovery codes" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" style={{ letterSpacing: '0.05em' }}>
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={all}>
          {({ copied, copy }) => (
            <Button variant="default" color={copied ? TONE.success : undefined} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => downloadText(RECOVERY_CODES_FILENAME, recoveryCodesText(codes), 'text/plain;charset=utf-8')}>
          Download .txt
        </Button>
      </Group>
      <Checkbox label="I have saved these recovery codes" checked={saved} onChange={(event) => setSaved(event.currentTarget.checked)} />
      <Group justify="flex-end">
        <Button onClick={onDone} disabled={!saved}>
          Done
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        They will not be shown again. You can make new ones from this card at any time (the old ones then stop working).
      </Text>
    </Stack>
  );
}
