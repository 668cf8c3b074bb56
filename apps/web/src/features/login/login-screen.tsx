// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { AUTH_SCREEN_TITLES, validateLoginForm, type LoginFormErrors } from '@signalboard/core';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { forgotPassword, login, signInOptions } from '../../lib/api/auth';
import { ApiError } from '../../lib/client';
import { tokenStorage } from '../../auth/token-storage';
import { AuthLayout } from '../../components/auth-layout';
import { notifyError, notifyInfo, notifySuccess } from '../../components/notify';
import { TwoFactorStep } from './two-factor-step';

// The dialog's code loads only when someone asks for a reset.
const ConfirmDialog = lazy(() => import('../../components/confirm-dialog'));

export const FORGOT_PASSWORD_NEEDS_EMAIL = 'Please enter your email to reset the password.';
export const FORGOT_PASSWORD_CONFIRM = 'Are you sure you want to reset your password?';
export const FORGOT_PASSWORD_SENT = 'Email sent! Please check your inbox for further instructions.';
export const FORGOT_PASSWORD_FAILED = 'An error occurred while processing your request.';

export function LoginScreen() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [signUpOpen, setSignUpOpen] = useState(false);

  // SIGNUP=open offers "Create an account" (docs/accounts.md); without an answer the screen is the spec's.
  useEffect(() => {
    let live = true;
    signInOptions().then(
      (options) => live && setSignUpOpen(options.sign_up === true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  // After a correct password, for an account with two-factor: the challenge its code completes.
  const [challenge, setChallenge] = useState<string | null>(null);

  // Messages appear only after a submit attempt (spec §5).
  const errors: LoginFormErrors = submitted ? validateLoginForm({ email, password }) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const problems = validateLoginForm({ email, password });
    if (problems.email || problems.password) return;
    setBusy(true);
    try {
      const answer = await login({ email: email.trim(), password });
      if ('access_token' in answer) signedIn(answer);
      else {
        setChallenge(answer.challenge);
        setBusy(false);
      }
    } catch (error) {
      notifyError(error instanceof ApiError ? error.message : FORGOT_PASSWORD_FAILED);
      setBusy(false);
    }
  }

  function signedIn(answer: { access_token: string; first_login: boolean }) {
    tokenStorage.set(answer.access_token);
    navigate(answer.first_login ? '/set-password' : '/dashboard', { replace: true });
  }

  if (challenge !== null) {
    return (
      <AuthLayout title={AUTH_SCREEN_TITLES.login} subtitle="Two-factor sign-in: one more step.">
        <TwoFactorStep
          challenge={challenge}
          onSignedIn={signedIn}
          onBack={() => {
            setChallenge(null);
            setPassword('');
            setSubmitted(false);
          }}
        />
      </AuthLayout>
    );
  }

  function onForgotPassword() {
    if (email.trim() === '') {
      notifyInfo(FORGOT_PASSWORD_NEEDS_EMAIL);
      return;
    }
    setConfirmOpen(true);
  }

  async function onConfirmReset() {
    setConfirmOpen(false);
    setResetting(true);
    try {
      await forgotPassword({ email: email.trim() });
      notifySuccess(FORGOT_PASSWORD_SENT);
    } catch (error) {
      notifyError(error instanceof ApiError && error.error ? error.error : FORGOT_PASSWORD_FAILED);
    } finally {
      setResetting(false);
    }
  }

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.login} subtitle="Scanners, news and alerts for the stocks you follow.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            autoFocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
          />
          <Button type="submit" loading={busy} fullWidth size="md">
            Login
          </Button>
          <Group justify="center">
            <Anchor component="button" type="button" size="sm" onClick={onForgotPassword} disabled={resetting}>
              Forgot Password
            </Anchor>
          </Group>
          {signUpOpen && (
            <Text size="sm" ta="center">
              New here?{' '}
              <Anchor component={Link} to="/sign-up" size="sm">
                Create an account
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
      {confirmOpen && (
        <Suspense fallback={null}>
          <ConfirmDialog
            opened
            question={FORGOT_PASSWORD_CONFIRM}
            confirmLabel="Reset password"
            onConfirm={onConfirmReset}
            onCancel={() => setConfirmOpen(false)}
          />
        </Suspense>
      )}
    </AuthLayout>
  );
}

export { LoginScreen as Component };
