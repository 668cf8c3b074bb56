import { Stack } from '@mantine/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { ScreenHeader } from '../../components/screen-header';
import { SmsVerificationCard } from './sms-verification-card';

/** Alert System Settings (spec §2 "Alert System Settings (alert)"). */
export function AlertSettingsScreen() {
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES.alert} description="Confirm the phone number that receives SMS alerts." />
      <Stack gap="lg" maw={720}>
        <SmsVerificationCard />
      </Stack>
    </>
  );
}

export { AlertSettingsScreen as Component };
