// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Alert, Anchor, Button, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { AUTH_SCREEN_TITLES, oidcErrorMessage, validateLoginForm, type LoginFormErrors, type LoginResponse, type SignInOptionsResponse } from '@signalboard/core';
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { forgotPassword, login, oidcComplete, oidcStart, signInOptions } from '../../lib/api/auth';
import { ApiError, messageOf } from '../../lib/client';
import { useOidcReturn } from '../../lib/oidc-return';
import { TONE } from '../../theme';
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
/** The provider's name in a message before sign_in_options has answered. */
export const PROVIDER_FALLBACK_LABEL = 'your provider';

export function LoginScreen() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [options, setOptions] = useState<SignInOptionsResponse | null>(null);
  const [adminForm, setAdminForm] = useState(false);
  const [starting, setStarting] = useState(false);
  const oidcReturn = useOidcReturn();
  const [completing, setCompleting] = useState(oidcReturn?.kind === 'oidc');
  // One exchange of the one-time code, even when the effect below runs twice (StrictMode).
  const completion = useRef<Promise<LoginResponse> | null>(null);

  // SIGNUP=open offers "Create an account", OIDC_ISSUER "Sign in with …", OIDC_ONLY puts the password
  // form behind "Administrator sign-in" (docs/accounts.md); without an answer the screen is the spec's.
  useEffect(() => {
    let live = true;
    signInOptions().then(
      (answer) => live && setOptions(answer),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  // After a correct password (or the provider's sign-in), for an account with two-factor: the challenge its code completes.
  const [challenge, setChallenge] = useState<string | null>(null);

  // Back from the provider with `#oidc=<one-time code>`: exchanged for what a password sign-in answers.
  const onCompleted = useEffectEvent((answer: LoginResponse) => signInAnswered(answer));
  useEffect(() => {
    if (oidcReturn?.kind !== 'oidc') return;
    let live = true;
    completion.current ??= oidcComplete({ code: oidcReturn.value });
    completion.current.then(
      (answer) => live && onCompleted(answer),
      (error: unknown) => {
        if (!live) return;
        notifyError(messageOf(error));
        setCompleting(false);
      },
    );
    return () => {
      live = false;
    };
  }, [oidcReturn]);
  const label = options?.single_sign_on?.label ?? PROVIDER_FALLBACK_LABEL;
  const oidcError = oidcReturn?.kind === 'error' ? oidcErrorMessage(oidcReturn.reason, label) : null;

  // Messages appear only after a submit attempt (spec §5).
  const errors: LoginFormErrors = submitted ? validateLoginForm({ email, password }) : {};

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const problems = validateLoginForm({ email, password });
    if (problems.email || problems.password) return;
    setBusy(true);
    try {
      signInAnswered(await login({ email: email.trim(), password }));
    } catch (error) {
      notifyError(error instanceof ApiError ? error.message : FORGOT_PASSWORD_FAILED);
      setBusy(false);
    }
  }

  /** A password sign-in's answer, or single sign-on's (the same): signed in, or the two-factor step. */
  function signInAnswered(answer: LoginResponse) {
    if ('access_token' in answer) signedIn(answer);
    else {
      setChallenge(answer.challenge);
      setBusy(false);
      setCompleting(false);
    }
  }

  async function onSingleSignOn() {
    setStarting(true);
    try {
      window.location.assign((await oidcStart({})).url);
    } catch (error) {
      notifyError(messageOf(error));
      setStarting(false);
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

  if (completing) {
    return (
      <AuthLayout title={AUTH_SCREEN_TITLES.login} subtitle="Scanners, news and alerts for the stocks you follow.">
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">Signing you in…</Text>
        </Group>
      </AuthLayout>
    );
  }

  const singleSignOn = options?.single_sign_on ?? null;
  // OIDC_ONLY: the provider's button is the way in; the password form is for admins, one click away.
  const adminsOnly = options?.password_form === 'admins';
  const ssoButton = singleSignOn && (
    <Button type="button" variant={adminsOnly ? 'filled' : 'default'} loading={starting} fullWidth size="md" onClick={() => void onSingleSignOn()}>
      Sign in with {singleSignOn.label}
    </Button>
  );
  const passwordForm = (
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
        <Button type="submit" loading={busy} fullWidth size="md" variant={adminsOnly ? 'default' : 'filled'}>
          Login
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={onForgotPassword} disabled={resetting}>
            Forgot Password
          </Anchor>
        </Group>
      </Stack>
    </form>
  );

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.login} subtitle="Scanners, news and alerts for the stocks you follow.">
      <Stack gap="md">
        {oidcError && (
          <Alert color={TONE.failure} variant="light" role="alert">
            {oidcError}
          </Alert>
        )}
        {adminsOnly ? (
          <>
            {ssoButton}
            {adminForm ? (
              <>
                <Divider label="or" labelPosition="center" />
                {passwordForm}
              </>
            ) : (
              <Group justify="center">
                <Button type="button" variant="subtle" size="sm" onClick={() => setAdminForm(true)}>
                  Administrator sign-in
                </Button>
              </Group>
            )}
          </>
        ) : (
          <>
            {passwordForm}
            {ssoButton && (
              <>
                <Divider label="or" labelPosition="center" />
                {ssoButton}
              </>
            )}
          </>
        )}
        {options?.sign_up === true && (
          <Text size="sm" ta="center">
            New here?{' '}
            <Anchor component={Link} to="/sign-up" size="sm">
              Create an account
            </Anchor>
          </Text>
        )}
      </Stack>
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
