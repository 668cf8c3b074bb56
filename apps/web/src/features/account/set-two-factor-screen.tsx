// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Anchor, Group } from '@mantine/core';
import { AUTH_SCREEN_TITLES } from '@signalboard/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { hasValidToken, tokenStorage } from '../../auth/token-storage';
import { AuthLayout } from '../../components/auth-layout';
import { notifyError, notifySuccess } from '../../components/notify';
import { logout, savePendingDefaultFavorites } from '../../lib/api/auth';
import { messageOf } from '../../lib/client';
import { queryClient } from '../../lib/query-client';
import { TwoFactorCard } from './two-factor-card';

/**
 * /set-two-factor: where a session goes when the installation requires two-factor sign-in and the
 * account has not turned it on (the server answers its other calls 403 `two_factor_setup_required`;
 * docs/accounts.md). The Account screen's two-factor card, outside the shell; once the recovery codes
 * are saved, on to the dashboard.
 */
export function SetTwoFactorScreen() {
  const navigate = useNavigate();
  if (!hasValidToken()) return <Navigate to="/login" replace />;

  /** On to the dashboard, with the MAG 7 a first login could not save before two-factor was on. */
  async function finished() {
    try {
      if (await savePendingDefaultFavorites()) notifySuccess('MAG 7 stocks added successfully!');
    } catch (error) {
      notifyError(`Error adding MAG 7 stocks: ${messageOf(error)}`);
    }
    navigate('/dashboard', { replace: true });
  }

  async function signOut() {
    await logout().catch(() => undefined);
    tokenStorage.clear();
    navigate('/login', { replace: true });
  }

  return (
    <AuthLayout title={AUTH_SCREEN_TITLES.setTwoFactor} subtitle="Your installation requires two-factor sign-in: please turn it on to continue.">
      {/* Outside the shell, which provides the query client to the dashboard's screens. */}
      <QueryClientProvider client={queryClient}>
        <TwoFactorCard framed={false} onFinished={() => void finished()} />
      </QueryClientProvider>
      <Group justify="center" mt="lg">
        <Anchor component="button" type="button" size="sm" onClick={() => void signOut()}>
          Sign out
        </Anchor>
      </Group>
    </AuthLayout>
  );
}

export { SetTwoFactorScreen as Component };
