import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Pagination.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import { Stack, Tabs } from '@mantine/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { useSearchParams } from 'react-router';
import { ScreenHeader } from '../../components/screen-header';
import { AlertHistory } from './alert-history';
import { AlertPreferencesCard } from './alert-preferences-card';
import { DeliverySettingsCard } from './delivery-settings-card';
import { SmsVerificationCard } from './sms-verification-card';
import { WebhooksCard } from './webhooks-card';

/** The screen's tabs; `?tab=history` opens the history (a link can point at it). */
export type AlertScreenTab = 'settings' | 'history';

/** Alert System Settings (spec §2 "Alert System Settings (alert)"), with the Alert History tab (issue 15). */
export function AlertSettingsScreen() {
  const [params, setParams] = useSearchParams();
  const tab: AlertScreenTab = params.get('tab') === 'history' ? 'history' : 'settings';
  const select = (value: string | null) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'history') next.set('tab', 'history');
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );
  };
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES.alert} description="Confirm the phone number for SMS alerts, choose what each alert type watches and how it reaches you, and see every alert that fired." />
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
          <Tabs.Tab value="history">Alert History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="settings">
          <Stack gap="lg" maw={720}>
            <SmsVerificationCard />
            <AlertPreferencesCard />
            <DeliverySettingsCard />
            <WebhooksCard />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <AlertHistory />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

export { AlertSettingsScreen as Component };
