import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { Stack } from '@mantine/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { ScreenHeader } from '../../components/screen-header';
import { AlertPreferencesCard } from './alert-preferences-card';
import { DeliverySettingsCard } from './delivery-settings-card';
import { SmsVerificationCard } from './sms-verification-card';

/** Alert System Settings (spec §2 "Alert System Settings (alert)"). */
export function AlertSettingsScreen() {
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES.alert} description="Confirm the phone number for SMS alerts, then choose what each alert type watches and how it reaches you." />
      <Stack gap="lg" maw={720}>
        <SmsVerificationCard />
        <AlertPreferencesCard />
        <DeliverySettingsCard />
      </Stack>
    </>
  );
}

export { AlertSettingsScreen as Component };
