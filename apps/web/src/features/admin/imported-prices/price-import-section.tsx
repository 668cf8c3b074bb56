import { Alert, Button, FileInput, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconFileUpload, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { formatPrice } from '../../../components/format';
import { importedPricesQuery } from '../api/prices';
import { PriceFilePreview } from './price-file-preview';
import { usePriceFiles, type ImportOutcome } from './use-price-files';

const count = (value: number) => formatPrice(value, 0);

/** "Import price files": choose files, check each in its preview, import them. */
export function PriceImportSection() {
  const inputId = useId();
  const imported = useQuery(importedPricesQuery());
  const known = new Set(imported.data?.map((row) => row.symbol) ?? []);
  const { files, previews, choose, change, drop, blocker, importing, importAll, outcomes } = usePriceFiles();

  return (
    <Stack gap="sm" component="section" aria-labelledby={`${inputId}-title`}>
      <Title order={3} size="h5" id={`${inputId}-title`}>
        Import price files
      </Title>
      <FileInput
        label="Daily price files"
        description="One symbol a file (its name is the symbol: AAPL.csv) or a symbol column; .csv or .txt, up to 100 MB each. Nothing is stored until you press Import."
        placeholder="Choose files"
        multiple
        accept=".csv,.txt,text/csv,text/plain"
        leftSection={<IconFileUpload size={16} aria-hidden />}
        // Always empty: each choice adds its files to the list below (and the same file may be chosen again).
        value={[]}
        onChange={(chosen) => {
          if (chosen.length > 0) choose(chosen);
        }}
        maw={520}
      />
      {outcomes.length > 0 && <ImportReport outcomes={outcomes} />}
      {files.map((chosen, index) => (
        <PriceFilePreview
          key={chosen.id}
          chosen={chosen}
          preview={previews[index]!}
          isNew={(symbol) => !known.has(symbol)}
          onChange={(next) => change(chosen.id, next)}
          onDrop={() => drop(chosen.id)}
        />
      ))}
      {files.length > 0 && (
        <Group gap="sm" align="center">
          <Button leftSection={<IconUpload size={16} aria-hidden />} disabled={blocker !== null || importing} loading={importing} onClick={() => void importAll()}>
            {files.length === 1 ? 'Import' : `Import ${files.length} files`}
          </Button>
          {blocker && (
            <Text size="sm" c="dimmed">
              {blocker}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

/** What the import did: per file, per symbol, the new, changed and unchanged bars; or why it was refused. */
function ImportReport({ outcomes }: { outcomes: readonly ImportOutcome[] }) {
  const failed = outcomes.some((outcome) => 'failure' in outcome || !outcome.report.stored);
  return (
    <Alert color={failed ? 'yellow' : 'green'} variant="light" title={failed ? 'Not every file was imported' : 'Imported'} role="status">
      <List size="sm" spacing={2}>
        {outcomes.map((outcome) =>
          'failure' in outcome ? (
            <List.Item key={outcome.file}>
              {outcome.file}: not imported. {outcome.failure}
            </List.Item>
          ) : !outcome.report.stored ? (
            <List.Item key={outcome.file}>
              {outcome.file}: refused ({count(outcome.report.error_count)} {outcome.report.error_count === 1 ? 'error' : 'errors'}); nothing was stored. Choose it again to see why.
            </List.Item>
          ) : (
            outcome.report.series.map((series) => (
              <List.Item key={`${outcome.file}-${series.symbol}`}>
                {series.symbol} from {outcome.file}: {count(series.counts?.inserted ?? 0)} new, {count(series.counts?.updated ?? 0)} changed, {count(series.counts?.unchanged ?? 0)} unchanged
                {series.adjusted.length > 0 ? `; split adjusted on ${series.adjusted.join(', ')}` : ''}
              </List.Item>
            ))
          ),
        )}
      </List>
    </Alert>
  );
}
