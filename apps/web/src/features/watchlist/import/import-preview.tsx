import { Alert, Checkbox, Group, List, NativeSelect, Stack, Text, ThemeIcon } from '@mantine/core';
import type { WatchlistImportEntryResult, WatchlistImportPreviewResponse } from '@signalboard/core';
import { IconAlertTriangle, IconQuestionMark } from '@tabler/icons-react';
import type { FavoriteRow } from '../favorites-editing';
import { blockedReason, entryPlace, FORMAT_NAMES, previewSummary, type ImportSelection } from './import-selection';

/** The radio value of "Don't add" (a symbol is never empty). */
const SKIP = '';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `place`: where the entry is ("line 3"), which makes its control's name unique among repeats (entryPlace). */
function EntryRow(props: { entry: WatchlistImportEntryResult; place: string; value: string | null; favorites: readonly FavoriteRow[]; onChange: (symbol: string | null) => void }) {
  const { entry, place, value, favorites, onChange } = props;
  if (entry.status === 'found') {
    const blocked = blockedReason(entry, favorites);
    return (
      <Checkbox
        label={`${entry.symbol} - ${entry.description} (${place})`}
        description={`${entry.exchange}${blocked ? ` · ${blocked}` : ''}`}
        checked={value !== null}
        disabled={blocked !== null}
        onChange={(event) => onChange(event.currentTarget.checked ? entry.symbol : null)}
      />
    );
  }
  if (entry.status === 'ambiguous') {
    const duplicate = entry.duplicateOfLine === undefined ? '' : ` · same as line ${entry.duplicateOfLine}`;
    const inList = (symbol: string) => favorites.some((row) => row.symbol === symbol);
    return (
      <NativeSelect
        label={`${capitalized(place)}: ${entry.raw} is listed more than once — pick one`}
        description={`${entry.candidates.map((candidate) => candidate.exchange).join(' and ')}${duplicate}`}
        value={value ?? SKIP}
        disabled={entry.duplicateOfLine !== undefined}
        onChange={(event) => onChange(event.currentTarget.value === SKIP ? null : event.currentTarget.value)}
        data={[
          { value: SKIP, label: "Don't add" },
          ...entry.candidates.map((candidate) => ({
            value: candidate.symbol,
            label: `${candidate.symbol} - ${candidate.description} (${candidate.exchange})${inList(candidate.symbol) ? ' · already in your favorites' : ''}`,
            disabled: inList(candidate.symbol),
          })),
        ]}
      />
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <ThemeIcon size={20} radius="xl" variant="light" color="gray" aria-hidden>
        <IconQuestionMark size={14} />
      </ThemeIcon>
      <div>
        <Text size="sm">
          Line {entry.line}: {entry.raw} — not found
        </Text>
        <Text size="xs" c="dimmed">
          {entry.reason}
        </Text>
      </div>
    </Group>
  );
}

/** The preview step: each entry as found (a tick), ambiguous (a pick) or unknown (why), and the unreadable lines. */
export function ImportPreview(props: {
  preview: WatchlistImportPreviewResponse;
  selection: ImportSelection;
  favorites: readonly FavoriteRow[];
  onSelect: (index: number, symbol: string | null) => void;
}) {
  const { preview, selection, favorites, onSelect } = props;
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {`${preview.format ? `Read as ${FORMAT_NAMES[preview.format]}: ` : ''}${previewSummary(preview)}`}
      </Text>
      {preview.entries.length === 0 && preview.problems.length === 0 && <Text>No symbols found in the text.</Text>}
      {preview.entries.length > 0 && (
        <List listStyleType="none" spacing="sm" aria-label="Entries found" styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}>
          {preview.entries.map((entry, index) => (
            <List.Item key={`${entry.line}-${index}`}>
              <EntryRow entry={entry} place={entryPlace(preview.entries, index)} value={selection[index] ?? null} favorites={favorites} onChange={(symbol) => onSelect(index, symbol)} />
            </List.Item>
          ))}
        </List>
      )}
      {preview.problems.length > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={preview.problems.length === 1 ? 'A line could not be read' : `${preview.problems.length} lines could not be read`}>
          <List size="sm" spacing={2} aria-label="Lines that could not be read">
            {preview.problems.map((problem, index) => (
              <List.Item key={`${problem.line}-${index}`}>
                Line {problem.line}: {problem.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
