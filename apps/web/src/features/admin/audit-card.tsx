import { Button, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@signalboard/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMediumDate } from '../../components/format';
import { notifyError } from '../../components/notify';
import { downloadCsv } from '../../lib/download';
import { EmptyList, ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { auditQuery, fetchAuditCsv } from './api/admin';
import { AdminCard } from './admin-card';


/** An action's detail in words: "member → admin", "2 sessions ended". */
function detailOf(entry: AuditEntry): string {
  const { detail } = entry;
  if (typeof detail.from === 'string' && typeof detail.to === 'string') return `${detail.from} → ${detail.to}`;
  // require-two-factor: whether two-factor sign-in is required of everyone, before → after.
  if (typeof detail.to === 'boolean') return detail.to ? 'required' : 'no longer required';
  if (typeof detail.sessions_ended === 'number') return `${detail.sessions_ended} ${detail.sessions_ended === 1 ? 'session' : 'sessions'} ended`;
  if (typeof detail.role === 'string') return `as ${detail.role}`;
  return '';
}

/** The audit log of Administration (issue 28): the newest 50 admin actions, and all of them as CSV. */
export function AuditCard() {
  const audit = useQuery(auditQuery());
  const [downloading, setDownloading] = useState(false);

  async function download() {
    setDownloading(true);
    try {
      const { filename, text } = await fetchAuditCsv();
      downloadCsv(filename, text);
    } catch (error) {
      notifyError(messageOf(error));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <AdminCard
      title="Audit log"
      description="Every admin action — by this screen, the command line or ADMIN_EMAILS — with who, whom, when and from where. Entries are never changed or removed."
      action={
        <Button variant="default" leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => void download()}>
          Download CSV
        </Button>
      }
    >
      {audit.isPending && <ListLoading message="Loading the audit log…" />}
      {audit.isError && <ListError title="The audit log could not be loaded" message={messageOf(audit.error)} onRetry={() => void audit.refetch()} retrying={audit.isFetching} />}
      {audit.data && audit.data.entries.length === 0 && <EmptyList message="No admin action yet." hint="Changes of role or state, ended sessions and password resets will be listed here." />}
      {audit.data && audit.data.entries.length > 0 && (
        <Table.ScrollContainer minWidth={760} type="native" tabIndex={0} role="region" aria-label="Audit log entries">
          <Table verticalSpacing="xs" aria-label="Audit log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Detail</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatMediumDate(Date.parse(entry.at) / 1000)}</Table.Td>
                  <Table.Td>{entry.actor}</Table.Td>
                  <Table.Td>{entry.action}</Table.Td>
                  <Table.Td>{entry.target}</Table.Td>
                  <Table.Td>{detailOf(entry)}</Table.Td>
                  <Table.Td>{entry.address || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {audit.data?.more && (
        <Text size="sm" c="dimmed">
          Showing the newest {audit.data.entries.length}; the CSV holds them all.
        </Text>
      )}
    </AdminCard>
  );
}
