import { Button, Group, Paper, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { SCAN_UNIVERSE_LABELS, SCAN_UNIVERSES, type ScanUniverse } from '@signalboard/core';
import { IconListDetails, IconMathFunction, IconPlayerPlay } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { TONE } from '../../theme';
import type { CatalogField } from './builder-model';
import { ConditionBuilder } from './condition-builder';
import { FormulaEditor } from './formula-editor';
import type { EditorMode, ScanEditor as Editor } from './use-scan-editor';

const UNIVERSE_OPTIONS = SCAN_UNIVERSES.map((value) => ({ value, label: SCAN_UNIVERSE_LABELS[value] }));
const isUniverse = (value: string | null): value is ScanUniverse => SCAN_UNIVERSES.includes(value as ScanUniverse);

/** Today in the user's zone, YYYY-MM-DD: the latest date "Run as of" offers. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * The scan being edited: its universe, its conditions (the builder, or formula mode), the optional
 * date to run it as of, and Run. `problem` is what kept the last Run or Save from being sent;
 * `footer` holds the save controls.
 */
export function ScanEditor({
  editor,
  catalog,
  running,
  problem,
  onRun,
  footer,
}: {
  editor: Editor;
  catalog: readonly CatalogField[];
  running: boolean;
  problem: string | null;
  onRun: () => void;
  footer: ReactNode;
}) {
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!running) onRun();
  };
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="lg" component="section" aria-labelledby="custom-scan-editor-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="custom-scan-editor-title">
            Scan
          </Title>
          <Group align="flex-end" gap="md" wrap="wrap">
            <Select
              label="Universe"
              data={UNIVERSE_OPTIONS}
              value={editor.universe}
              onChange={(value) => isUniverse(value) && editor.setUniverse(value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 220 }}
            />
            <TextInput
              type="date"
              label="Run as of (optional)"
              description="Leave empty for the latest session."
              value={editor.asOf}
              max={today()}
              onChange={(event) => editor.setAsOf(event.currentTarget.value)}
              w={{ base: '100%', xs: 240 }}
            />
          </Group>
          <Tabs value={editor.mode} onChange={(value) => value && editor.switchMode(value as EditorMode)} keepMounted={false}>
            <Tabs.List aria-label="Edit the conditions with">
              <Tabs.Tab value="builder" leftSection={<IconListDetails size={16} aria-hidden />} disabled={editor.mode === 'formula' && !editor.fitsBuilder}>
                Builder
              </Tabs.Tab>
              <Tabs.Tab value="formula" leftSection={<IconMathFunction size={16} aria-hidden />}>
                Formula
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="builder" pt="md">
              <ConditionBuilder rows={editor.rows} onChange={editor.setRows} catalog={catalog} problems={editor.problems} formula={editor.builderFormula} />
            </Tabs.Panel>
            <Tabs.Panel value="formula" pt="md">
              <FormulaEditor value={editor.formula} onChange={editor.editFormula} check={editor.formulaCheck} />
            </Tabs.Panel>
          </Tabs>
          {problem && (
            <Text size="sm" c={TONE.failure} role="alert">
              {problem}
            </Text>
          )}
          <Group gap="sm">
            <Button type="submit" leftSection={<IconPlayerPlay size={16} aria-hidden />} disabled={running} w={{ base: '100%', xs: 'auto' }}>
              {running ? 'Running...' : 'Run scan'}
            </Button>
          </Group>
        </Stack>
      </form>
      {footer}
    </Paper>
  );
}
