import { Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconFilePlus } from '@tabler/icons-react';
import type { FormEvent } from 'react';

/** Most characters of a scan's name (the contract's limit). */
export const SCAN_NAME_MAX = 80;

/**
 * Saving the scan being edited: its Name, then Save (a new scan) or, when a saved scan is open, Save
 * changes (it is replaced) and Save as new. A new scan cannot be saved past the limit: the bar says
 * so instead. `limit` is null while the list has not loaded.
 */
export function SaveScanBar({
  name,
  onNameChange,
  openScanName,
  savedCount,
  limit,
  saving,
  onSave,
  onNew,
}: {
  name: string;
  onNameChange: (name: string) => void;
  /** The saved scan being edited, if any. */
  openScanName: string | null;
  savedCount: number;
  limit: number | null;
  saving: 'new' | 'changes' | null;
  onSave: (asNew: boolean) => void;
  onNew: () => void;
}) {
  const full = limit !== null && savedCount >= limit;
  const nameMissing = name.trim() === '';
  const busy = saving !== null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || nameMissing) return;
    if (openScanName !== null) onSave(false);
    else if (!full) onSave(true);
  };
  return (
    <Stack gap="sm" mt="lg">
      <Divider />
      <form onSubmit={onSubmit} noValidate aria-label="Save the scan">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="e.g. Oversold in an uptrend"
            value={name}
            maxLength={SCAN_NAME_MAX}
            onChange={(event) => onNameChange(event.currentTarget.value)}
            w={{ base: '100%', xs: 280 }}
          />
          {openScanName !== null && (
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} disabled={busy || nameMissing} w={{ base: '100%', xs: 'auto' }}>
              {saving === 'changes' ? 'Saving...' : 'Save changes'}
            </Button>
          )}
          <Button
            type={openScanName === null ? 'submit' : 'button'}
            variant={openScanName === null ? 'filled' : 'default'}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            disabled={busy || nameMissing || full}
            onClick={openScanName === null ? undefined : () => onSave(true)}
            w={{ base: '100%', xs: 'auto' }}
          >
            {saving === 'new' ? 'Saving...' : openScanName === null ? 'Save' : 'Save as new'}
          </Button>
          <Button variant="subtle" leftSection={<IconFilePlus size={16} aria-hidden />} onClick={onNew} disabled={busy} w={{ base: '100%', xs: 'auto' }}>
            New scan
          </Button>
        </Group>
      </form>
      <Text size="sm" c="dimmed">
        {openScanName !== null ? `Editing your saved scan “${openScanName}”. ` : 'Not saved yet. '}
        {limit !== null && (full ? `You have ${savedCount} of ${limit} saved scans, the most you can keep: delete one to save a new one.` : `${savedCount} of ${limit} saved scans.`)}
      </Text>
    </Stack>
  );
}
