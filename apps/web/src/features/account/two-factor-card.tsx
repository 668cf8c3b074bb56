import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TwoFactorSetupResponse } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatMediumDate } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { messageOf } from '../../lib/client';
import { TONE } from '../../theme';
import { twoFactorQuery, useNewRecoveryCodes, useTwoFactorDisable, useTwoFactorSetup } from './api/two-factor';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TwoFactorSetup } from './two-factor-setup';

export const TWO_FACTOR_TITLE = 'Two-factor sign-in';

/** What the card shows besides the state the server keeps: a setup under way, codes to save, a code asked for. */
type Step = { kind: 'idle' } | { kind: 'setup'; setup: TwoFactorSetupResponse } | { kind: 'codes'; codes: string[]; msg: string } | { kind: 'confirm'; action: 'disable' | 'new-codes' };

/**
 * Two-factor sign-in on the Account screen (issue 28; docs/accounts.md): Off → Turn on (QR code, key,
 * first code) → the recovery codes, shown once → On (since when, codes left, new codes, Turn off
 * with a code). `onFinished`: the recovery codes were saved (the set-two-factor screen moves on).
 */
export function TwoFactorCard({ onFinished, framed = true }: { onFinished?: () => void; framed?: boolean }) {
  const state = useQuery(twoFactorQuery());
  const setup = useTwoFactorSetup();
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  async function turnOn() {
    try {
      setStep({ kind: 'setup', setup: await setup.mutateAsync(undefined) });
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  let body;
  if (step.kind === 'codes') {
    body = (
      <RecoveryCodesPanel
        codes={step.codes}
        msg={step.msg}
        onDone={() => {
          setStep({ kind: 'idle' });
          onFinished?.();
        }}
      />
    );
  } else if (step.kind === 'setup') {
    body = <TwoFactorSetup setup={step.setup} onEnabled={({ codes, msg }) => setStep({ kind: 'codes', codes, msg })} onCancel={() => setStep({ kind: 'idle' })} />;
  } else if (state.isPending) {
    body = <Skeleton h={60} aria-label="Loading two-factor sign-in" />;
  } else if (state.isError) {
    body = (
      <Alert color={TONE.failure} title="Two-factor sign-in could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{messageOf(state.error)}</Text>
          <Button size="xs" variant="default" onClick={() => void state.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!state.data.enabled) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {state.data.required
            ? 'Your installation requires it: turn it on to go on using Signalboard.'
            : 'Off. With it on, signing in asks for your password and a code from an app on your phone.'}
        </Text>
        <Button onClick={() => void turnOn()} loading={setup.isPending}>
          Turn on
        </Button>
      </Stack>
    );
  } else {
    const { since, recovery_codes_left: left, required } = state.data;
    body = (
      <Stack gap="sm">
        <Group gap="xs">
          <Badge color={TONE.success} variant="light">
            On
          </Badge>
          <Text size="sm">since {since ? formatMediumDate(Date.parse(since) / 1000) : '—'}</Text>
        </Group>
        <Text size="sm" c={left <= 2 ? undefined : 'dimmed'} fw={left <= 2 ? 600 : undefined}>
          {left} of 10 recovery codes left{left <= 2 ? ': make new ones before you run out.' : '.'}
        </Text>
        {step.kind === 'confirm' ? (
          <CodeConfirm
            action={step.action}
            onCancel={() => setStep({ kind: 'idle' })}
            onCodes={(codes, msg) => setStep({ kind: 'codes', codes, msg })}
            onDone={() => setStep({ kind: 'idle' })}
          />
        ) : (
          <Group gap="sm">
            <Button variant="default" onClick={() => setStep({ kind: 'confirm', action: 'new-codes' })}>
              New recovery codes
            </Button>
            {!required && (
              <Button variant="default" color={TONE.failure} onClick={() => setStep({ kind: 'confirm', action: 'disable' })}>
                Turn off
              </Button>
            )}
          </Group>
        )}
        {required && (
          <Text size="xs" c="dimmed">
            Your installation requires two-factor sign-in, so it cannot be turned off.
          </Text>
        )}
      </Stack>
    );
  }

  const content = (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {TWO_FACTOR_TITLE}
        </Title>
        <Text size="sm" c="dimmed">
          A code from an authenticator app on your phone, asked for after your password.
        </Text>
      </Stack>
      {body}
    </Stack>
  );
  return framed ? (
    <Paper withBorder p="lg" radius="lg" component="section" aria-label={TWO_FACTOR_TITLE}>
      {content}
    </Paper>
  ) : (
    content
  );
}

/** Asks for a code (or a recovery code) before turning two-factor off or making new recovery codes. */
function CodeConfirm({ action, onCancel, onCodes, onDone }: { action: 'disable' | 'new-codes'; onCancel: () => void; onCodes: (codes: string[], msg: string) => void; onDone: () => void }) {
  const disable = useTwoFactorDisable();
  const renew = useNewRecoveryCodes();
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const busy = disable.isPending || renew.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (code.trim() === '') return;
    try {
      if (action === 'disable') {
        notifySuccess((await disable.mutateAsync(code.trim())).msg);
        onDone();
      } else {
        const answer = await renew.mutateAsync(code.trim());
        onCodes(answer.recovery_codes, answer.msg);
      }
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Code from your app, or a recovery code"
          autoComplete="one-time-code"
          maw={280}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={submitted && code.trim() === '' ? 'Please enter a code.' : undefined}
          data-autofocus
        />
        <Group gap="sm">
          <Button type="submit" loading={busy} color={action === 'disable' ? TONE.failure : undefined}>
            {action === 'disable' ? 'Turn off two-factor' : 'Make new recovery codes'}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
