// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/PasswordInput.layer.css';
import { Box, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { ScreenHeader } from '../../components/screen-header';
import { useCurrentUser } from '../../lib/session-queries';
import { PasswordCard } from './password-card';
import { SessionsCard } from './sessions-card';
import { SingleSignOnCard } from './single-sign-on-card';
import { TwoFactorCard } from './two-factor-card';

/** Account (/dashboard/account; issue 28): who is signed in, the password, two-factor sign-in, single sign-on and the sessions (docs/accounts.md). */
export function AccountScreen() {
  const user = useCurrentUser();
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES.account} description="Your password, two-factor sign-in, and every device your account is signed in on." />
      <Stack gap="lg" maw={960}>
        <Paper withBorder p="lg" radius="lg">
          <Text size="sm" c="dimmed">
            Signed in as
          </Text>
          {user.data ? <Text fw={600}>{user.data.email}</Text> : <Skeleton h={20} w={240} mt={4} />}
        </Paper>
        <Box maw={560}>
          <PasswordCard />
        </Box>
        <Box maw={720}>
          <TwoFactorCard />
        </Box>
        <SingleSignOnCard />
        <SessionsCard />
      </Stack>
    </>
  );
}

export { AccountScreen as Component };
