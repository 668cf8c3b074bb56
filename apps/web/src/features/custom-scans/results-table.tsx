import { Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ScanResultRow } from '@signalboard/core';
import { IconArrowsSort, IconChartCandle, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { changeColor } from '../../components/format';
import { SymbolWithMarker } from '../../components/imported-marker';
import { formatCell, type ResultColumn, type SortState } from './results-model';

const numeric = (column: ResultColumn) => column.unit !== 'text';

/** A cell's text, and for a change its colour (always with its sign). */
function Cell({ column, row }: { column: ResultColumn; row: ScanResultRow }) {
  const value = column.value(row);
  const text = formatCell(value, column.unit);
  const color = column.signed && typeof value === 'number' ? changeColor(value) : undefined;
  return (
    <SymbolWithMarker symbol={row.symbol} imported={column.id === 'symbol' && row.imported}>
      <Text span inherit c={color} fw={column.id === 'symbol' ? 700 : undefined}>
        {text}
      </Text>
    </SymbolWithMarker>
  );
}

/** Opens the row's Details chart; its name says which row ("Details of AAPL"). */
function DetailsButton({ row, onDetails }: { row: ScanResultRow; onDetails: (row: ScanResultRow) => void }) {
  return (
    <Button variant="light" size="compact-sm" leftSection={<IconChartCandle size={14} aria-hidden />} aria-label={`Details of ${row.symbol}`} onClick={() => onDetails(row)}>
      Details
    </Button>
  );
}

function SortIcon({ direction }: { direction: SortState['direction'] | null }) {
  const Icon = direction === 'ascending' ? IconSortAscending : direction === 'descending' ? IconSortDescending : IconArrowsSort;
  return <Icon size={14} aria-hidden style={{ flexShrink: 0, opacity: direction ? 1 : 0.6 }} />;
}

/** The sort choices of the phone's list: each column, up and down. */
function sortOptions(columns: readonly ResultColumn[]) {
  return [
    { value: '', label: "Universe's order" },
    ...columns.flatMap((column) => [
      { value: `${column.id}|ascending`, label: `${column.label}, ${numeric(column) ? 'lowest' : 'A'} first` },
      { value: `${column.id}|descending`, label: `${column.label}, ${numeric(column) ? 'highest' : 'Z'} first` },
    ]),
  ];
}

/**
 * The matching symbols: a dense table sortable by every header (aria-sort) on wide screens, cards
 * with a "Sort by" choice on a phone (docs/ui.md "Layout"). `rows` are already in the chosen order;
 * each row has a "Details" button (its chart).
 */
export function ResultsTable({
  columns,
  rows,
  sort,
  onSortColumn,
  onSort,
  onDetails,
}: {
  columns: readonly ResultColumn[];
  rows: readonly ScanResultRow[];
  sort: SortState | null;
  onSortColumn: (column: string) => void;
  onSort: (sort: SortState | null) => void;
  onDetails: (row: ScanResultRow) => void;
}) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  if (!wide) {
    const [first, second, price, change, ...fields] = columns;
    return (
      <Stack gap="sm">
        <Select
          label="Sort by"
          data={sortOptions(columns)}
          value={sort ? `${sort.column}|${sort.direction}` : ''}
          onChange={(value) => {
            if (!value) return onSort(null);
            const [column, direction] = value.split('|') as [string, SortState['direction']];
            onSort({ column, direction });
          }}
          allowDeselect={false}
        />
        <Stack gap="sm" role="list" aria-label="Matching symbols">
          {rows.map((row) => (
            <Paper key={row.symbol} withBorder radius="md" p="md" role="listitem" aria-label={row.symbol}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={700} size="lg">
                    <Cell column={first!} row={row} />
                  </Text>
                  <Text size="sm" c="dimmed" truncate>
                    <Cell column={second!} row={row} />
                  </Text>
                </Stack>
                <Stack gap={0} align="flex-end">
                  <Text fw={600}>
                    <Cell column={price!} row={row} />
                  </Text>
                  <Text size="sm" fw={600}>
                    <Cell column={change!} row={row} />
                  </Text>
                </Stack>
              </Group>
              {fields.length > 0 && (
                <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
                  {fields.map((column) => (
                    <Stack key={column.id} gap={0}>
                      <Text size="xs" c="dimmed">
                        {column.label}
                      </Text>
                      <Text size="sm" fw={600}>
                        <Cell column={column} row={row} />
                      </Text>
                    </Stack>
                  ))}
                </SimpleGrid>
              )}
              <Group justify="flex-end" mt="xs">
                <DetailsButton row={row} onDetails={onDetails} />
              </Group>
            </Paper>
          ))}
        </Stack>
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" horizontalSpacing="md" highlightOnHover striped aria-label="Matching symbols">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const direction = sort?.column === column.id ? sort.direction : null;
                return (
                  <Table.Th key={column.id} aria-sort={direction ?? 'none'} ta={numeric(column) ? 'right' : 'left'} style={{ whiteSpace: 'nowrap' }}>
                    <UnstyledButton
                      onClick={() => onSortColumn(column.id)}
                      fw={600}
                      fz="sm"
                      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flexDirection: numeric(column) ? 'row-reverse' : 'row' }}
                    >
                      {column.label}
                      <SortIcon direction={direction} />
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
              <Table.Th>
                <Text span fw={600} fz="sm">
                  Chart
                </Text>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.symbol}>
                {columns.map((column) => (
                  <Table.Td key={column.id} ta={numeric(column) ? 'right' : 'left'} style={column.id === 'name' ? { maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } : { whiteSpace: 'nowrap' }}>
                    <Cell column={column} row={row} />
                  </Table.Td>
                ))}
                <Table.Td>
                  <DetailsButton row={row} onDetails={onDetails} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
