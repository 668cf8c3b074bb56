import { ActionIcon, Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { SCAN_UNIVERSE_LABELS, type ListScansResponse, type SavedScan } from '@signalboard/core';
import { IconAlertTriangle, IconCopy, IconPencil, IconTrash } from '@tabler/icons-react';
import { TONE } from '../../theme';
import { monthDayYear } from '../../components/en-us-format';

export const NO_SAVED_SCANS = 'No saved scans yet.';

/** 'Nov 20, 2026' of an ISO instant, in the user's zone. */
const updatedOn = (iso: string) => monthDayYear(new Date(iso));

function ScanItem({
  scan,
  isOpen,
  busy,
  onOpen,
  onRename,
  onDuplicate,
  onDelete,
}: {
  scan: SavedScan;
  isOpen: boolean;
  busy: boolean;
  onOpen: () => void;
  onRename: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={scan.name}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} truncate>
              {scan.name}
            </Text>
            {isOpen && (
              <Badge size="xs" variant="light" color={TONE.info} style={{ flexShrink: 0 }}>
                open
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {SCAN_UNIVERSE_LABELS[scan.universe]} · changed {updatedOn(scan.updated_at)}
          </Text>
          <Text size="xs" ff="monospace" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {scan.formula}
          </Text>
        </Stack>
        <Button size="compact-sm" variant="light" onClick={onOpen} aria-label={`Open ${scan.name}`} style={{ flexShrink: 0 }}>
          Open
        </Button>
      </Group>
      <Group gap={4} mt={6} justify="flex-end">
        <Tooltip label="Rename">
          <ActionIcon variant="subtle" color="gray" aria-label={`Rename ${scan.name}`} onClick={onRename} disabled={busy}>
            <IconPencil size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Duplicate">
          <ActionIcon variant="subtle" color="gray" aria-label={`Duplicate ${scan.name}`} onClick={onDuplicate} disabled={busy}>
            <IconCopy size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Delete">
          <ActionIcon variant="subtle" color={TONE.failure} aria-label={`Delete ${scan.name}`} onClick={onDelete} disabled={busy}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}

/** The user's saved scans: the count against the limit, and each with Open, Rename, Duplicate and Delete. */
export function SavedScansPanel({
  list,
  openScanId,
  busy,
  onOpen,
  onRename,
  onDuplicate,
  onDelete,
}: {
  list: { data: ListScansResponse | undefined; isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  openScanId: number | null;
  busy: boolean;
  onOpen: (scan: SavedScan) => void;
  onRename: (scan: SavedScan) => void;
  onDuplicate: (scan: SavedScan) => void;
  onDelete: (scan: SavedScan) => void;
}) {
  let body;
  if (list.isPending) {
    body = (
      <Stack gap="xs" aria-busy>
        <Skeleton h={72} radius="md" />
        <Skeleton h={72} radius="md" />
      </Stack>
    );
  } else if (list.isError || !list.data) {
    body = (
      <Alert color={TONE.failure} variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Your saved scans could not be loaded.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{list.error?.message}</Text>
          <Button size="xs" color={TONE.failure} onClick={() => void list.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (list.data.scans.length === 0) {
    body = (
      <Stack gap={2} py="sm">
        <Text fw={500}>{NO_SAVED_SCANS}</Text>
        <Text size="sm" c="dimmed">
          Build a scan and press Save, or start from one of the starter scans.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Saved scans">
        {list.data.scans.map((scan) => (
          <ScanItem
            key={scan.id}
            scan={scan}
            isOpen={scan.id === openScanId}
            busy={busy}
            onOpen={() => onOpen(scan)}
            onRename={() => onRename(scan)}
            onDuplicate={() => onDuplicate(scan)}
            onDelete={() => onDelete(scan)}
          />
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="custom-scan-saved-title">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4" id="custom-scan-saved-title">
          Your saved scans
        </Title>
        {list.data && (
          <Text size="sm" c="dimmed">
            {list.data.scans.length} of {list.data.limit}
          </Text>
        )}
      </Group>
      {body}
    </Stack>
  );
}
