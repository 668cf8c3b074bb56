import { Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ImportedSymbol } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { monthDayYear } from '../../../components/en-us-format';
import { formatMediumDate, formatPrice } from '../../../components/format';
import { EmptyList, ListError, ListLoading } from '../../../components/trade-ideas/list-states';
import { messageOf } from '../../../lib/client';
import { importedPricesQuery, useRemoveImportedPrices } from '../api/prices';
import { ConfirmAction, notifyOutcome } from '../confirm-action';

/** YYYY-MM-DD → "Dec 3, 2026" (a calendar day, no zone shift). */
function formatDay(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return monthDayYear(new Date(year!, month! - 1, day!));
}

/** "Jan 2, 2025 → Dec 3, 2026", or "No bars" for a symbol whose bars are gone. */
export function rangeText(first: string | null, last: string | null): string {
  return first && last ? `${formatDay(first)} → ${formatDay(last)}` : 'No bars';
}

const count = (value: number) => formatPrice(value, 0);

/** The imported symbols of the installation, each removable after a confirm. */
export function ImportedPricesTable() {
  const prices = useQuery(importedPricesQuery());
  const remove = useRemoveImportedPrices();
  const [confirming, setConfirming] = useState<string | null>(null);

  if (prices.isPending) return <ListLoading message="Loading the imported prices…" />;
  if (prices.isError) return <ListError title="The imported prices could not be loaded" message={messageOf(prices.error)} onRetry={() => void prices.refetch()} retrying={prices.isFetching} />;
  return (
    <Stack gap="xs">
      {prices.data.length === 0 ? (
        <EmptyList message="No price file imported yet." hint="Choose a daily price file below: it is checked and shown before anything is stored." />
      ) : (
        <Table.ScrollContainer minWidth={900} type="native" tabIndex={0} role="region" aria-label="Imported symbols, scrollable">
          <Table verticalSpacing="xs" aria-label="Imported symbols">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Symbol</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Exchange</Table.Th>
                <Table.Th>Range</Table.Th>
                <Table.Th ta="right">Rows</Table.Th>
                <Table.Th ta="right">Last close</Table.Th>
                <Table.Th>Source file</Table.Th>
                <Table.Th>Imported</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {prices.data.map((row) => (
                <ImportedRow key={row.symbol} row={row} busy={remove.isPending && remove.variables === row.symbol} onRemove={() => setConfirming(row.symbol)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmAction
        pending={confirming}
        question={(symbol) => `Remove ${symbol}'s imported prices? Its bars are deleted; the market source serves the symbol again if it knows it.`}
        confirmLabel="Remove"
        onClose={() => setConfirming(null)}
        onConfirm={(symbol) => void notifyOutcome(remove.mutateAsync(symbol))}
      />
    </Stack>
  );
}

function ImportedRow({ row, busy, onRemove }: { row: ImportedSymbol; busy: boolean; onRemove: () => void }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {row.symbol}
        </Text>
      </Table.Td>
      <Table.Td>{row.description}</Table.Td>
      <Table.Td>{row.exchange}</Table.Td>
      <Table.Td>{rangeText(row.first_day, row.last_day)}</Table.Td>
      <Table.Td ta="right">{count(row.rows)}</Table.Td>
      <Table.Td ta="right">{formatPrice(row.last_close)}</Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>{row.source_file}</Table.Td>
      <Table.Td>{formatMediumDate(Date.parse(row.imported_at) / 1000)}</Table.Td>
      <Table.Td>
        <Button variant="subtle" color="red" size="xs" loading={busy} onClick={onRemove} aria-label={`Remove ${row.symbol}`}>
          Remove
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
