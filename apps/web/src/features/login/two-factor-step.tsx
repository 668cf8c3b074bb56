import '@mantine/core/styles/Switch.layer.css';
import { Anchor, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { loginTwoFactor } from '../../lib/api/auth';
import { ApiError } from '../../lib/client';
import { notifyError } from '../../components/notify';

export const TWO_FACTOR_CODE_LABEL = 'Two-factor code';
export const RECOVERY_CODE_LABEL = 'Recovery code';
export const USE_RECOVERY_CODE = 'Use a recovery code';

/** A refusal that leaves the challenge usable (a wrong code with tries left); any other 401 means start over. */
const challengeStillOpen = (error: unknown) => !(error instanceof ApiError && error.status === 401 && !/tries? left/.test(error.message));

/**
 * The second step of signing in with two-factor (docs/accounts.md): a 6-digit code from the app, or a
 * recovery code; the server's msg on failure (how many tries are left). Back, or a challenge that has
 * expired or locked, returns to the password.
 */
export function TwoFactorStep({ challenge, onSignedIn, onBack }: { challenge: string; onSignedIn: (answer: { access_token: string; first_login: boolean }) => void; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const label = recovery ? RECOVERY_CODE_LABEL : TWO_FACTOR_CODE_LABEL;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (code.trim() === '') return;
    setBusy(true);
    try {
      onSignedIn(await loginTwoFactor({ challenge, code: code.trim() }));
    } catch (error) {
      notifyError(error instanceof ApiError ? error.message : String(error));
      setBusy(false);
      setCode('');
      setSubmitted(false);
      if (!challengeStillOpen(error)) onBack();
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {recovery ? 'Type one of the recovery codes you saved when you turned two-factor on. Each works once.' : 'Open your authenticator app and type the 6-digit code it shows for Signalboard.'}
        </Text>
        <TextInput
          key={label}
          label={label}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={submitted && code.trim() === '' ? `${label} is required` : undefined}
          autoFocus
        />
        <Switch label={USE_RECOVERY_CODE} checked={recovery} onChange={(event) => setRecovery(event.currentTarget.checked)} />
        <Button type="submit" loading={busy} fullWidth size="md">
          Verify
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={onBack} disabled={busy}>
            Back to email and password
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
