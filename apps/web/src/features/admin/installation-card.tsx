import { Badge, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminInstallationResponse, InstallationCheck } from '@signalboard/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { formatMediumDate } from '../../components/format';
import { ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { TONE } from '../../theme';
import { installationQuery } from './api/admin';
import { AdminCard } from './admin-card';

const when = (iso: string | null) => (iso === null ? 'Never' : formatMediumDate(Date.parse(iso) / 1000));

const STATE_LABEL: Record<InstallationCheck['state'], { label: string; color: string }> = {
  up: { label: 'Up', color: TONE.success },
  degraded: { label: 'Degraded', color: TONE.middling },
  down: { label: 'Down', color: TONE.failure },
  not_configured: { label: 'Not used', color: TONE.neutral },
};
const SOURCE_LABEL: Record<AdminInstallationResponse['market_data']['source'], string> = { simulated: 'Simulated market', file: 'Pinned dataset (file)', live: 'Live providers' };
const CHECK_LABEL: Record<string, string> = { database: 'Database', redis: 'Redis', queues: 'Job queues', market_data: 'Market data', mail: 'E-mail', sms: 'SMS' };
const JOB_STATUS: Record<string, { label: string; color: string }> = { done: { label: 'Done', color: TONE.success }, failed: { label: 'Failed', color: TONE.failure }, running: { label: 'Running', color: TONE.info } };

/** A check's details in words: "kind: outbox", "alerts: 2 waiting, 0 active". */
function detailsOf(check: InstallationCheck): string {
  const words = (value: unknown): string =>
    value !== null && typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .map(([key, inner]) => (inner !== null && typeof inner === 'object' ? `${key}: ${words(inner)}` : `${String(inner)} ${key}`))
          .join(', ')
      : String(value);
  // The queues' job counts read as "alerts: 2 waiting, 0 active"; other details as "kind: outbox".
  const parts = Object.entries(check.details).map(([key, value]) => (key === 'counts' ? words(value) : value !== null && typeof value === 'object' ? `${key}: ${words(value)}` : `${key.replace(/_/g, ' ')}: ${String(value)}`));
  return [check.msg, ...parts].filter((part) => part !== undefined && part !== '').join(' · ');
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {children}
      </Text>
    </Group>
  );
}

/**
 * The Installation card of Administration (issue 28; docs/accounts.md): readiness of each dependency
 * with its details, the data source and providers set up, delivery, and the scheduled jobs' newest
 * runs (how fresh the dashboard, the ideas and the alerts are).
 */
export function InstallationCard() {
  const installation = useQuery(installationQuery());
  const data = installation.data;
  return (
    <AdminCard
      title="Installation"
      description="What this installation runs on and how it is doing: the readiness checks, the data source, delivery and the scheduled jobs."
      action={
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} loading={installation.isFetching && !installation.isPending} onClick={() => void installation.refetch()}>
          Refresh
        </Button>
      }
    >
      {installation.isPending && <ListLoading message="Loading the installation's state…" />}
      {installation.isError && (
        <ListError title="The installation's state could not be loaded" message={messageOf(installation.error)} onRetry={() => void installation.refetch()} retrying={installation.isFetching} />
      )}
      {data && (
        <>
          <Group gap="sm">
            <Badge size="lg" variant="light" color={data.status === 'ready' ? TONE.success : TONE.failure}>
              {data.status === 'ready' ? 'Ready' : 'Not ready'}
            </Badge>
            <Text size="sm" c="dimmed">
              Version {data.version} · as of {when(data.time)}
            </Text>
          </Group>
          <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label="Readiness check entries">
            <Table verticalSpacing="xs" aria-label="Readiness checks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Dependency</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th ta="right">Check took</Table.Th>
                  <Table.Th>Details</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.checks.map((check) => (
                  <Table.Tr key={check.name}>
                    <Table.Td>
                      {CHECK_LABEL[check.name] ?? check.name}
                      {check.required && (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          (required)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATE_LABEL[check.state].color}>
                        {STATE_LABEL[check.state].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      {check.latency_ms} ms
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {detailsOf(check)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Stack gap={6}>
              <Title order={3} size="h5">
                Data
              </Title>
              <Fact label="Source">{SOURCE_LABEL[data.market_data.source]}</Fact>
              <Fact label="Providers set up">
                {data.market_data.providers
                  .filter((provider) => provider.configured)
                  .map((provider) => provider.name)
                  .join(', ') || 'None'}
              </Fact>
              <Fact label="News analyst">{data.analyst === 'local' ? 'Local (offline)' : data.analyst}</Fact>
              <Fact label="Alerts last evaluated">{when(data.alerts_evaluated_at)}</Fact>
              <Fact label="Database">{data.database === 'embedded' ? 'Embedded PostgreSQL' : 'External PostgreSQL'}</Fact>
              <Fact label="Redis">{data.redis ? 'In use (replicas and workers)' : 'Not used (one process)'}</Fact>
            </Stack>
            <Stack gap={6}>
              <Title order={3} size="h5">
                Delivery and accounts
              </Title>
              <Fact label="E-mail">{data.mail === 'smtp' ? 'SMTP' : 'Outbox (DATA_DIR/outbox)'}</Fact>
              <Fact label="SMS">{data.sms === 'twilio' ? 'Twilio' : 'Outbox (DATA_DIR/sms-outbox)'}</Fact>
              <Fact label="Telegram">{data.channels.telegram ? 'Bot set up' : 'Not set up'}</Fact>
              <Fact label="Browser push">{data.channels.push ? 'Available' : 'Not available'}</Fact>
              <Fact label="Sign-up">{data.sign_up === 'open' ? 'Open to anyone' : 'Closed (invitations only)'}</Fact>
            </Stack>
          </SimpleGrid>
          <Stack gap={6}>
            <Title order={3} size="h5">
              Scheduled jobs
            </Title>
            {data.jobs.length === 0 ? (
              <Text size="sm" c="dimmed">
                No scheduled job has run yet.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label="Scheduled job entries">
                <Table verticalSpacing="xs" aria-label="Scheduled jobs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Job</Table.Th>
                      <Table.Th>Newest run</Table.Th>
                      <Table.Th>Started</Table.Th>
                      <Table.Th>Last success</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.jobs.map((job) => {
                      const status = JOB_STATUS[job.status] ?? { label: job.status, color: TONE.neutral };
                      return (
                        <Table.Tr key={job.job}>
                          <Table.Td>{job.job}</Table.Td>
                          <Table.Td>
                            <Stack gap={2} align="flex-start">
                              <Badge variant="light" color={status.color}>
                                {status.label}
                              </Badge>
                              {job.error && (
                                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                                  {job.error}
                                </Text>
                              )}
                            </Stack>
                          </Table.Td>
                          <Table.Td>{when(job.started_at)}</Table.Td>
                          <Table.Td>{when(job.last_success_at)}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </>
      )}
    </AdminCard>
  );
}
