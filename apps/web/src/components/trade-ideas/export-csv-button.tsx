import { Button, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { toCsv, type CsvColumn } from '@signalboard/core';
import { downloadCsv } from '../../lib/download';

/**
 * 'Export CSV': downloads the rows the list shows (after its filters) as `{name}-YYYY-MM-DD.csv`;
 * with `load`, the rows it answers instead (every page of a list the screen has only partly loaded),
 * the button busy meanwhile and a failure said beside it. `label` is its text where a screen has more
 * than one ('Export track record CSV'): the visible text is the name, as WCAG 2.5.3 (label in name) asks.
 */
export function ExportCsvButton<T>({
  name,
  columns,
  rows,
  load,
  label,
}: {
  name: string;
  columns: readonly CsvColumn<T>[];
  rows: readonly T[];
  load?: () => Promise<readonly T[]>;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const onClick = async () => {
    setFailure(null);
    let exported = rows;
    if (load) {
      setBusy(true);
      try {
        exported = await load();
      } catch (error) {
        setFailure(`The export could not load every row: ${error instanceof Error ? error.message : String(error)}`);
        return;
      } finally {
        setBusy(false);
      }
    }
    const now = new Date();
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    downloadCsv(`${name}-${day}.csv`, toCsv(columns, exported));
  };
  return (
    <>
      {failure ? (
        <Text size="sm" c="red" role="alert">
          {failure}
        </Text>
      ) : null}
      <Button variant="default" size="sm" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void onClick()} loading={busy} disabled={rows.length === 0}>
        {label ?? 'Export CSV'}
      </Button>
    </>
  );
}
