// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import { Anchor, Button, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { AUTH_SCREEN_TITLES, PASSWORD_RULES, type InvitationResponse } from '@signalboard/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { tokenStorage } from '../../auth/token-storage';
import { AuthLayout } from '../../components/auth-layout';
import { notifyError, notifySuccess } from '../../components/notify';
import { acceptInvitation, describeInvitation, oidcStart, saveDefaultFavorites, signInOptions } from '../../lib/api/auth';

import { messageOf } from '../../lib/client';

export const INVITATION_LINK_INCOMPLETE = 'This link is incomplete: open the link from your e-mail as it is, or copy all of it into the address bar.';
export const PASSWORDS_DIFFER = 'The two passwords differ';

type Invitation = { state: 'checking' } | { state: 'invalid'; msg: string } | { state: 'valid'; invitation: InvitationResponse };

/**
 * /invite#<token> (issue 28; docs/accounts.md): the screen an invitation's link (or a sign-up's) opens.
 * It shows the e-mail the link is for; its owner chooses a password, and the account is made and
 * signed in at once (no first-login change: the password is theirs), with the default favourites.
 * The token travels after `#`, so it reaches no server log; it is sent in a POST body only.
 */
export function InvitationScreen() {
  const navigate = useNavigate();
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const [invitation, setInvitation] = useState<Invitation>(token === '' ? { state: 'invalid', msg: INVITATION_LINK_INCOMPLETE } : { state: 'checking' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  // OIDC_ISSUER: the account can be made with the provider's instead of a password (docs/accounts.md "Single sign-on").
  const [singleSignOn, setSingleSignOn] = useState<{ label: string } | null>(null);
  const [starting, setStarting] = useState(false);
  // OIDC_ONLY: members make their account with the provider; the password form is for an invited admin.
  const [membersUseProvider, setMembersUseProvider] = useState(false);
  const [choosePassword, setChoosePassword] = useState(false);

  useEffect(() => {
    if (token === '') return;
    let live = true;
    signInOptions().then(
      (options) => {
        if (!live) return;
        setSingleSignOn(options.single_sign_on ?? null);
        setMembersUseProvider(options.single_sign_on !== null && options.password_form === 'admins');
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [token]);

  useEffect(() => {
    if (token === '') return;
    let live = true;
    describeInvitation({ token }).then(
      (answer) => live && setInvitation({ state: 'valid', invitation: answer }),
      (error: unknown) => live && setInvitation({ state: 'invalid', msg: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const passwordError = submitted && password === '' ? 'Password is required' : undefined;
  const confirmError = submitted && password !== '' && confirm !== password ? PASSWORDS_DIFFER : undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (password === '' || confirm !== password) return;
    setBusy(true);
    try {
      const answer = await acceptInvitation({ token, password });
      tokenStorage.set(answer.access_token);
    } catch (error) {
      notifyError(messageOf(error));
      setBusy(false);
      return;
    }
    notifySuccess('Your account is ready. Welcome to Signalboard!');
    await saveDefaultFavorites().catch((error: unknown) => notifyError(`Error adding MAG 7 stocks: ${messageOf(error)}`));
    navigate('/dashboard', { replace: true });
  }

  /** Off to the provider; it comes back to /login#oidc=… with the account made and linked. */
  async function onSingleSignOn() {
    setStarting(true);
    try {
      window.location.assign((await oidcStart({ invitation: token })).url);
    } catch (error) {
      notifyError(messageOf(error));
      setStarting(false);
    }
  }

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.invitation} subtitle="Choose the password you will sign in with.">
      {invitation.state === 'checking' && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">Checking your link…</Text>
        </Group>
      )}
      {invitation.state === 'invalid' && (
        <Stack gap="md">
          <Text role="alert">{invitation.msg}</Text>
          <Anchor component={Link} to="/login" size="sm">
            Go to sign in
          </Anchor>
        </Stack>
      )}
      {invitation.state === 'valid' && (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput label="Email" type="email" autoComplete="username" value={invitation.invitation.email} readOnly variant="filled" />
            {singleSignOn && membersUseProvider && (
              <Button type="button" loading={starting} fullWidth size="md" onClick={() => void onSingleSignOn()}>
                Create account with {singleSignOn.label}
              </Button>
            )}
            {membersUseProvider && !choosePassword ? (
              <Button type="button" variant="subtle" size="xs" onClick={() => setChoosePassword(true)}>
                Invited as an administrator? Choose a password
              </Button>
            ) : (
              <>
                <PasswordInput
                  label="Password"
                  description={PASSWORD_RULES}
                  autoComplete="new-password"
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={passwordError}
                  autoFocus
                />
                <PasswordInput
                  label="Confirm Password"
                  autoComplete="new-password"
                  value={confirm}
                  onChange={(event) => setConfirm(event.currentTarget.value)}
                  error={confirmError}
                />
                <Button type="submit" loading={busy} fullWidth size="md" variant={membersUseProvider ? 'default' : 'filled'}>
                  Create account
                </Button>
              </>
            )}
            {singleSignOn && !membersUseProvider && (
              <>
                <Divider label="or" labelPosition="center" />
                <Button type="button" variant="default" loading={starting} fullWidth size="md" onClick={() => void onSingleSignOn()}>
                  Create account with {singleSignOn.label}
                </Button>
              </>
            )}
            <Text size="xs" c="dimmed" ta="center">
              This link works once, until {new Date(invitation.invitation.expires_at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}.
            </Text>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export { InvitationScreen as Component };
