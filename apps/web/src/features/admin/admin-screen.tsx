// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/List.layer.css';
import { SCREEN_TITLES } from '@signalboard/core';
import { Stack } from '@mantine/core';
import { ScreenHeader } from '../../components/screen-header';
import { AuditCard } from './audit-card';
import { DataCard } from './imported-prices/data-card';
import { InstallationCard } from './installation-card';
import { InvitationsCard } from './invitations-card';
import { TwoFactorPolicyCard } from './two-factor-policy-card';
import { UsersCard } from './users-card';

/**
 * Administration (/dashboard/admin; issue 28, docs/accounts.md): the accounts, the invitations, the sign-in policy, the installation's state, the imported price files and the audit log. The
 * menu shows it to admins only; every call it makes is refused to a member by the server (403 with a
 * msg, which this screen then shows in place of each card).
 */
export function AdminScreen() {
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES.admin} description="The accounts of this installation, who is invited, how it is doing, and what its admins have done." />
      <Stack gap="lg">
        <UsersCard />
        <InvitationsCard />
        <TwoFactorPolicyCard />
        <InstallationCard />
        <DataCard />
        <AuditCard />
      </Stack>
    </>
  );
}

export { AdminScreen as Component };
