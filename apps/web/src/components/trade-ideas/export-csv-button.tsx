import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { downloadText, toCsv, type CsvColumn } from './csv';

/** 'Export CSV': downloads the rows the list shows (after its filters) as `{name}-YYYY-MM-DD.csv`. */
export function ExportCsvButton<T>({ name, columns, rows }: { name: string; columns: CsvColumn<T>[]; rows: readonly T[] }) {
  const onClick = () => {
    const now = new Date();
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    downloadText(`${name}-${day}.csv`, toCsv(columns, rows));
  };
  return (
    <Button variant="default" size="sm" leftSection={<IconDownload size={16} aria-hidden />} onClick={onClick} disabled={rows.length === 0}>
      Export CSV
    </Button>
  );
}
