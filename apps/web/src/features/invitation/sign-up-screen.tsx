// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { AUTH_SCREEN_TITLES } from '@signalboard/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from '../../components/auth-layout';
import { notifyError } from '../../components/notify';
import { signUp } from '../../lib/api/auth';
import { ApiError, messageOf } from '../../lib/client';


/**
 * /sign-up (issue 28; SIGNUP=open; docs/accounts.md): a visitor gives an e-mail and gets a link to
 * create the account there, so an account is only made for an address its owner reads. The answer is
 * the same whether or not the address has an account.
 */
export function SignUpScreen() {
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | undefined>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (email.trim() === '') return;
    setBusy(true);
    setRefused(undefined);
    try {
      setSent((await signUp({ email: email.trim() })).msg);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setRefused(error.message);
      else notifyError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.signUp} subtitle="We e-mail you a link to choose your password.">
      {sent !== null ? (
        <Stack gap="md">
          <Text role="status">{sent}</Text>
          <Text size="sm" c="dimmed">
            The link works once, for 72 hours. Nothing arrived? Check your spam folder, or ask again.
          </Text>
          <Anchor component={Link} to="/login" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={submitted && email.trim() === '' ? 'Email is required' : refused}
              autoFocus
            />
            <Button type="submit" loading={busy} fullWidth size="md">
              Send me a link
            </Button>
            <Anchor component={Link} to="/login" size="sm" ta="center">
              Back to sign in
            </Anchor>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export { SignUpScreen as Component };
