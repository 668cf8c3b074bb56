import { Alert, Badge, Button, Group, List, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PRICE_IMPORT_MAX_LISTINGS, type PriceImportResponse } from '@signalboard/core';
import { IconAlertTriangle, IconX } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatPrice } from '../../../components/format';
import { messageOf } from '../../../lib/client';
import { fallbackFormat, PriceFormatEditor } from './price-format-editor';
import { listingOf, PriceSeriesReport } from './price-series-report';
import { formatProblemOf, refusalOf, type ChosenFile } from './use-price-files';

/** The problems listed in a preview; the rest are counted. */
export const LISTED_PROBLEMS = 20;
const count = (value: number) => formatPrice(value, 0);
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/** One chosen file: its preview (a dry run) with the choices that go with its import. */
export function PriceFilePreview({
  chosen,
  preview,
  isNew,
  onChange,
  onDrop,
}: {
  chosen: ChosenFile;
  preview: UseQueryResult<PriceImportResponse>;
  /** Whether a symbol is new to the installation (not imported before). */
  isNew: (symbol: string) => boolean;
  onChange: (change: Partial<Omit<ChosenFile, 'id' | 'file' | 'sentFormat'>>) => void;
  onDrop: () => void;
}) {
  const headingId = useId();
  // The last answer stays shown while the next is checked, and after a failure (to change what failed).
  const [last, setLast] = useState<PriceImportResponse | undefined>(undefined);
  if (preview.data && preview.data !== last) setLast(preview.data);
  const report = preview.data ?? last;
  const format = chosen.format ?? report?.format ?? null;
  const formatProblem = formatProblemOf(chosen.format);
  const refusal = report && refusalOf(chosen.file.name, report);
  /** The file's symbols new to the installation: each gets its listing fields (PRICE_IMPORT_MAX_LISTINGS at most). */
  const newCount = report ? report.series.filter((series) => isNew(series.symbol)).length : 0;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Title order={3} size="h5" id={headingId} style={{ wordBreak: 'break-all' }}>
            {chosen.file.name}
          </Title>
          <Button variant="subtle" color="gray" size="xs" leftSection={<IconX size={14} aria-hidden />} onClick={onDrop} aria-label={`Don't import ${chosen.file.name}`}>
            Don't import
          </Button>
        </Group>
        {!report && preview.isFetching && (
          <Stack gap={6} role="status" aria-label={`Checking ${chosen.file.name}`}>
            <Text size="sm" c="dimmed">
              Checking {chosen.file.name}…
            </Text>
            <Skeleton height={18} />
            <Skeleton height={18} width="60%" />
          </Stack>
        )}
        {preview.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={`${chosen.file.name} could not be checked`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{messageOf(preview.error)}</Text>
              <Button size="xs" color="red" loading={preview.isFetching} onClick={() => void preview.refetch()}>
                Check again
              </Button>
            </Stack>
          </Alert>
        )}
        {report && (
          <>
            <Group gap="xs">
              {report.error_count > 0 ? (
                <Badge color="red" variant="light">
                  Refused: {plural(report.error_count, 'error', 'errors')}
                </Badge>
              ) : refusal ? (
                <Badge color="yellow" variant="light">
                  Nothing to import yet
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  Can be imported
                </Badge>
              )}
              {report.warning_count > 0 && (
                <Badge color="yellow" variant="light">
                  {plural(report.warning_count, 'warning', 'warnings')}
                </Badge>
              )}
              {preview.isFetching && (
                <Text size="xs" c="dimmed" role="status">
                  Checking again…
                </Text>
              )}
            </Group>
            {report.format_problem && (
              <Alert color="yellow" variant="light" p="xs">
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{report.format_problem}</Text>
                  {!chosen.format && (
                    <Button size="xs" variant="default" onClick={() => onChange({ format: fallbackFormat() })}>
                      Read with the settings below
                    </Button>
                  )}
                </Stack>
              </Alert>
            )}
            <PriceFormatEditor format={format ?? fallbackFormat()} headers={report.headers} columns={report.sample[0]?.length ?? 0} onChange={(next) => onChange({ format: next })} />
            {formatProblem && (
              <Text size="sm" c="red" role="alert">
                {formatProblem}
              </Text>
            )}
            {format?.mapping.symbol === null && <SymbolInput given={chosen.symbol} fromName={report.series[0]?.symbol} onGive={(symbol) => onChange({ symbol })} />}
            <SampleTable report={report} />
            <Problems report={report} />
            {newCount > PRICE_IMPORT_MAX_LISTINGS && (
              <Text size="sm">
                {newCount} symbols are new to this installation: each is listed with the source&apos;s name for it, or its symbol. Import at most {PRICE_IMPORT_MAX_LISTINGS} new
                symbols in a file to name them here.
              </Text>
            )}
            {report.series.map((series) => (
              <PriceSeriesReport
                key={series.symbol}
                series={series}
                adjust={chosen.adjust}
                onAdjust={(date, checked) => onChange({ adjust: checked ? [...chosen.adjust, date] : chosen.adjust.filter((day) => day !== date) })}
                listing={newCount <= PRICE_IMPORT_MAX_LISTINGS && isNew(series.symbol) ? (chosen.listings[series.symbol] ?? listingOf(series)) : null}
                onListing={(listing) => onChange({ listings: { ...chosen.listings, [series.symbol]: listing } })}
              />
            ))}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The symbol of a file without a symbol column: its name's unless given; checked again when the field is left or Enter pressed. */
function SymbolInput({ given, fromName, onGive }: { given: string; fromName: string | undefined; onGive: (symbol: string) => void }) {
  const [text, setText] = useState(given);
  const commit = () => {
    const symbol = text.trim().toUpperCase();
    if (symbol !== given) onGive(symbol);
  };
  return (
    <TextInput
      label="Symbol"
      description="The file has no symbol column: the symbol is its name's unless you give one."
      placeholder={fromName ?? 'e.g. AAPL'}
      maxLength={20}
      maw={320}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}

function SampleTable({ report }: { report: PriceImportResponse }) {
  if (report.sample.length === 0) return null;
  const width = Math.max(report.headers.length, ...report.sample.map((row) => row.length));
  return (
    <Table.ScrollContainer minWidth={Math.min(120 * width, 900)} type="native" tabIndex={0} role="region" aria-label={`First rows of ${report.file}, scrollable`}>
      <Table withTableBorder verticalSpacing={4} fz="xs" aria-label={`First rows of ${report.file}`}>
        <Table.Thead>
          <Table.Tr>
            {Array.from({ length: width }, (_, index) => (
              <Table.Th key={index}>{report.headers[index] || `Column ${index + 1}`}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.sample.map((row, rowIndex) => (
            <Table.Tr key={rowIndex}>
              {Array.from({ length: width }, (_, index) => (
                <Table.Td key={index}>{row[index] ?? ''}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Problems({ report }: { report: PriceImportResponse }) {
  const errors = report.problems.filter((problem) => problem.severity === 'error');
  const warnings = report.problems.filter((problem) => problem.severity === 'warning');
  return (
    <>
      <ProblemList title="Refusals" color="red" problems={errors.map((problem) => problem.message)} total={report.error_count} />
      <ProblemList title="Warnings" color="yellow" problems={warnings.map((problem) => problem.message)} total={report.warning_count} />
    </>
  );
}

function ProblemList({ title, color, problems, total }: { title: string; color: 'red' | 'yellow'; problems: string[]; total: number }) {
  if (total === 0 && problems.length === 0) return null;
  const shown = problems.slice(0, LISTED_PROBLEMS);
  const more = Math.max(total, problems.length) - shown.length;
  return (
    <Alert color={color} variant="light" p="sm" title={`${title} (${count(Math.max(total, problems.length))})`}>
      <List size="sm" spacing={2} aria-label={title}>
        {shown.map((message, index) => (
          <List.Item key={index}>{message}</List.Item>
        ))}
      </List>
      {more > 0 && (
        <Text size="sm" mt={4}>
          and {plural(more, 'more', 'more')}.
        </Text>
      )}
    </Alert>
  );
}
