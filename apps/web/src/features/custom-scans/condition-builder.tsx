import { Button, Code, Fieldset, Stack, Text } from '@mantine/core';
import { MAX_GROUP_CONDITIONS } from '@signalboard/core';
import { IconPlus } from '@tabler/icons-react';
import { GROUP_HINTS, GROUP_KEYS, GROUP_LABELS, newRow, type BuilderRows, type CatalogField, type GroupKey, type RowDraft } from './builder-model';
import { ConditionRow } from './condition-row';

/**
 * The builder: three groups of rows, all of (AND), any of (OR), none of (NOT), each with its rows
 * and an Add button; under them the formula the rows make (docs/custom-scans.md "One model").
 */
export function ConditionBuilder({
  rows,
  onChange,
  catalog,
  problems,
  formula,
}: {
  rows: BuilderRows;
  onChange: (rows: BuilderRows) => void;
  catalog: readonly CatalogField[];
  problems: ReadonlyMap<number, string>;
  /** The formula of the complete rows. */
  formula: string;
}) {
  const update = (group: GroupKey, next: RowDraft[]) => onChange({ ...rows, [group]: next });
  return (
    <Stack gap="md">
      {GROUP_KEYS.map((group) => (
        <Fieldset key={group} legend={GROUP_LABELS[group]} radius="md" p={{ base: 'xs', sm: 'sm' }} variant="filled" styles={{ legend: { fontWeight: 600 } }}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {GROUP_HINTS[group]}
            </Text>
            {rows[group].map((row, index) => (
              <ConditionRow
                key={row.id}
                row={row}
                label={`${GROUP_LABELS[group]}, condition ${index + 1}`}
                catalog={catalog}
                problem={problems.get(row.id)}
                onChange={(changed) => update(group, rows[group].map((candidate) => (candidate.id === row.id ? changed : candidate)))}
                onRemove={() => update(group, rows[group].filter((candidate) => candidate.id !== row.id))}
              />
            ))}
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => update(group, [...rows[group], newRow(catalog)])}
              disabled={rows[group].length >= MAX_GROUP_CONDITIONS}
              aria-label={`Add condition to ${GROUP_LABELS[group]}`}
              style={{ alignSelf: 'flex-start' }}
            >
              Add condition
            </Button>
          </Stack>
        </Fieldset>
      ))}
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          As a formula
        </Text>
        <Code block data-testid="builder-formula" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {formula || 'Add a condition to see its formula.'}
        </Code>
      </Stack>
    </Stack>
  );
}
