import '@mantine/core/styles/Code.layer.css';
import { Box, Button, Code, CopyButton, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import type { TwoFactorSetupResponse } from '@signalboard/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { notifyError } from '../../components/notify';
import { messageOf } from '../../lib/client';
import { TONE } from '../../theme';
import { useTwoFactorEnable } from './api/two-factor';

// The QR encoder loads only when someone turns two-factor on.
const QrCode = lazy(() => import('../../components/qr-code'));

export const CODE_REQUIRED = 'Please enter the 6-digit code from your app.';

/**
 * Turning two-factor on, after setup: the key as a QR code and typed by hand, and the first code from
 * the app to confirm it. `onEnabled` gets the recovery codes the server answers, once.
 */
export function TwoFactorSetup({ setup, onEnabled, onCancel }: { setup: TwoFactorSetupResponse; onEnabled: (answer: { codes: string[]; msg: string }) => void; onCancel?: () => void }) {
  const enable = useTwoFactorEnable();
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (code.trim() === '') return;
    try {
      const answer = await enable.mutateAsync(code.trim());
      onEnabled({ codes: answer.recovery_codes, msg: answer.msg });
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">1. Scan this QR code with an authenticator app (Google Authenticator, 1Password, Aegis, …), or type the key into it.</Text>
        <Group align="flex-start" gap="lg">
          <Box p={4} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, background: '#ffffff' }}>
            <Suspense fallback={<Loader size="sm" m={92} aria-label="Drawing the QR code" />}>
              <QrCode value={setup.otpauth_uri} label="QR code of your two-factor key" size={192} />
            </Suspense>
          </Box>
          <Stack gap={6} style={{ flex: '1 1 200px', minWidth: 0 }}>
            <Text size="sm" fw={500} id="two-factor-key-label">
              Key (for typing in)
            </Text>
            <Code fz="md" aria-labelledby="two-factor-key-label" data-testid="two-factor-key" style={{ overflowWrap: 'anywhere', letterSpacing: '0.05em' }}>
              {setup.manual_key}
            </Code>
            <CopyButton value={setup.manual_key.replace(/ /g, '')}>
              {({ copied, copy }) => (
                <Button variant="default" size="xs" w="fit-content" color={copied ? TONE.success : undefined} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Group>
        <TextInput
          label="2. Code from your app"
          description="The 6 digits your app shows for Signalboard."
          autoComplete="one-time-code"
          inputMode="numeric"
          maw={240}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={submitted && code.trim() === '' ? CODE_REQUIRED : undefined}
        />
        <Group gap="sm">
          <Button type="submit" loading={enable.isPending}>
            Confirm
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={enable.isPending}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
