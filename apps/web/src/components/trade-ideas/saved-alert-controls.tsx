import './mantine-styles';
import { Anchor, Button, Checkbox, Group, Text } from '@mantine/core';
import { IconBellPlus } from '@tabler/icons-react';
import { TONE } from '../../theme';

/**
 * An active item's Alert checkbox (spec §2: active items only). The visible label is 'Alert'; the
 * accessible name adds what it is for ('Alert for NVDA NVDA261218C00150000'), unique on the screen.
 */
export function AlertCheckbox({ name, checked, onChange, disabled }: { name: string; checked: boolean; onChange: (on: boolean) => void; disabled?: boolean }) {
  return (
    <Checkbox
      label="Alert"
      aria-label={`Alert for ${name}`}
      checked={checked}
      disabled={disabled}
      onChange={(event) => onChange(event.currentTarget.checked)}
      size="sm"
    />
  );
}

/**
 * 'Save Alerts' ('Saving...' and disabled while busy), how many are checked, and the saved set's
 * load state: while it loads, or when it failed (the reason with a Retry), Save waits.
 */
export function SaveAlertsBar({
  checkedCount,
  onSave,
  saving,
  loading,
  loadError,
  onRetry,
}: {
  checkedCount: number;
  onSave: () => void;
  saving: boolean;
  loading: boolean;
  loadError: string | null;
  onRetry: () => void;
}) {
  return (
    <Group gap="sm" wrap="wrap">
      {/* Not before the saved set is known: saving then would overwrite alerts the screen never showed. */}
      <Button leftSection={<IconBellPlus size={16} aria-hidden />} onClick={onSave} disabled={saving || loading || loadError !== null}>
        {saving ? 'Saving...' : 'Save Alerts'}
      </Button>
      <Text size="sm" c="dimmed" aria-live="polite">
        {loading ? 'Loading your saved alerts...' : `${checkedCount} alert${checkedCount === 1 ? '' : 's'} checked`}
      </Text>
      {loadError ? (
        <Text size="sm" c={TONE.failure} role="alert">
          Your saved alerts could not be loaded: {loadError}{' '}
          <Anchor component="button" type="button" size="sm" onClick={onRetry}>
            Retry loading alerts
          </Anchor>
        </Text>
      ) : null}
    </Group>
  );
}
