import { Alert, Button, FileInput, Group, Modal, Stack, Textarea } from '@mantine/core';
import { WATCHLIST_IMPORT_MAX_BYTES } from '@signalboard/core';
import { IconAlertTriangle, IconFileUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { messageOf } from '../../../lib/client';
import { usePreviewWatchlistImport } from '../api/preview-watchlist-import';
import type { FavoriteRow } from '../favorites-editing';
import { ImportPreview } from './import-preview';
import { initialSelection, selectedStocks, type ImportSelection } from './import-selection';

export const IMPORT_FORMATS_HINT =
  'A TradingView watchlist export (NASDAQ:AAPL,TSX:RY,…), a CSV with a symbol, ticker or code column, or one symbol per line. Up to 1 MB and 2,000 lines.';

/**
 * Import on the WatchList (docs/data-in-and-out.md "Watchlist import and export"): a file or pasted
 * text, a preview of what was found, and "Add N to favorites", which only adds to the editing state
 * (the spec's Save and Cancel still decide).
 */
export function ImportDialog(props: { opened: boolean; favorites: readonly FavoriteRow[]; onClose: () => void; onAdd: (stocks: FavoriteRow[]) => void }) {
  const { opened, favorites, onClose, onAdd } = props;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [selection, setSelection] = useState<ImportSelection>([]);
  const preview = usePreviewWatchlistImport();
  const result = preview.data;

  function close() {
    setFile(null);
    setFileError(null);
    setText('');
    preview.reset();
    onClose();
  }

  async function chooseFile(chosen: File | null) {
    setFile(chosen);
    setFileError(null);
    if (!chosen) return;
    if (chosen.size > WATCHLIST_IMPORT_MAX_BYTES) {
      setFileError(`${chosen.name} is larger than 1 MB; split it into smaller files.`);
      return;
    }
    try {
      setText(await chosen.text());
    } catch (error) {
      setFileError(`${chosen.name} could not be read: ${messageOf(error)}`);
    }
  }

  function runPreview() {
    preview.mutate(text, { onSuccess: (answer) => setSelection(initialSelection(answer, favorites)) });
  }

  const toAdd = result ? selectedStocks(result, selection, favorites) : [];

  return (
    <Modal opened={opened} onClose={close} size="lg" title="Import symbols" closeButtonProps={{ 'aria-label': 'Close' }}>
      {!result ? (
        <Stack gap="md">
          <FileInput
            label="Watchlist file"
            description="A .csv or .txt file; its text appears below."
            placeholder="Choose a file"
            accept=".csv,.txt,text/csv,text/plain"
            leftSection={<IconFileUpload size={16} aria-hidden />}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove file' }}
            value={file}
            onChange={(chosen) => void chooseFile(chosen)}
            error={fileError}
          />
          <Textarea
            label="Paste symbols"
            description={IMPORT_FORMATS_HINT}
            placeholder={'NASDAQ:AAPL,NYSE:MSFT,TSX:RY'}
            rows={6}
            resize="vertical"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          {preview.isError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="The list could not be read">
              {messageOf(preview.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={runPreview} disabled={text.trim() === '' || fileError !== null || preview.isPending}>
              {preview.isPending ? 'Reading...' : 'Preview'}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <ImportPreview
            preview={result}
            selection={selection}
            favorites={favorites}
            onSelect={(index, symbol) => setSelection((current) => current.map((value, at) => (at === index ? symbol : value)))}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => preview.reset()}>
              Back
            </Button>
            <Button
              disabled={toAdd.length === 0}
              onClick={() => {
                onAdd(toAdd);
                close();
              }}
            >
              {`Add ${toAdd.length} to favorites`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
