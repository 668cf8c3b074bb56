import { Alert } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';
import { SCREEN_TITLES, type DashboardChildPath } from '@signalboard/core';
import { ScreenHeader } from '../../components/screen-header';

/** An honest placeholder for a screen a later release builds: no sample content. */
export function NotAvailableScreen({ path }: { path: DashboardChildPath }) {
  return (
    <>
      <ScreenHeader title={SCREEN_TITLES[path]} description="Part of Signalboard's next releases." />
      <Alert variant="light" color="gray" icon={<IconHourglassHigh size={20} />} maw={640}>
        This screen is not available yet.
      </Alert>
    </>
  );
}
