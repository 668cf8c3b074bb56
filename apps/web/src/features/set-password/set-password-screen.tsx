// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { AUTH_SCREEN_TITLES } from '@signalboard/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { logout, saveDefaultFavorites, saveDefaultFavoritesLater, updatePassword } from '../../lib/api/auth';
import { ApiError, messageOf } from '../../lib/client';

import { hasValidToken, tokenStorage } from '../../auth/token-storage';
import { AuthLayout } from '../../components/auth-layout';
import { notifyError, notifySuccess } from '../../components/notify';


/** /set-password (Change Password): new password, then the MAG 7 favourites, then back to login (spec §4). */
export function SetPasswordScreen() {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!hasValidToken()) return <Navigate to="/login" replace />;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (password === '') return;
    setBusy(true);
    try {
      await updatePassword({ new_password: password });
    } catch (error) {
      notifyError(messageOf(error));
      setBusy(false);
      return;
    }
    notifySuccess('Password updated successfully!');
    try {
      await saveDefaultFavorites();
      notifySuccess('MAG 7 stocks added successfully!');
    } catch (error) {
      // The installation requires two-factor sign-in first: the MAG 7 are saved once it is on.
      if (error instanceof ApiError && error.status === 403) await saveDefaultFavoritesLater().catch(() => undefined);
      else notifyError(`Error adding MAG 7 stocks: ${messageOf(error)}`);
    }
    // Sign in again with the new password: this session ends on the server too (it would otherwise
    // stay listed among the account's sessions until its token expired).
    await logout().catch(() => undefined);
    tokenStorage.clear();
    navigate('/login', { replace: true });
  }

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.setPassword} subtitle="Choose a new password to finish setting up your account.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={submitted && password === '' ? 'New password is required' : undefined}
            autoFocus
          />
          <Button type="submit" loading={busy} fullWidth size="md">
            Update Password
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

export { SetPasswordScreen as Component };
