// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Fieldset.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import { Alert, Button, Grid, Skeleton, Stack, Text } from '@mantine/core';
import type { SavedScan, ScanTemplate } from '@signalboard/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { notifyError, notifyInfo, notifySuccess } from '../../components/notify';
import { ScreenHeader } from '../../components/screen-header';
import { TONE } from '../../theme';
import { useDeleteScan } from './api/delete-scan';
import { useScanFields } from './api/get-scan-fields';
import { useScansList } from './api/list-scans';
import { useRunScan } from './api/run-scan';
import { useSaveScan, type SaveScanInput } from './api/save-scan';
import { BacktestPanel } from './backtest-panel';
import type { CatalogField } from './builder-model';
import { RenameScanModal } from './rename-scan-modal';
import { SaveScanBar, SCAN_NAME_MAX } from './save-scan-bar';
import { SavedScansPanel } from './saved-scans-panel';
import { ScanEditor } from './scan-editor';
import { ScanResults } from './scan-results';
import { StarterScans } from './starter-scans';
import { useScanEditor } from './use-scan-editor';

/**
 * 'Oversold (copy)': the duplicate's name, cut to fit the limit; 'Oversold (copy 2)' and so on when
 * the user has that name already (the server refuses a second scan of the same name).
 */
export function copyName(name: string, taken: readonly string[] = []): string {
  const used = new Set(taken.map((other) => other.trim().toLowerCase()));
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const candidate = `${name.slice(0, SCAN_NAME_MAX - suffix.length)}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

type SavePurpose = 'new' | 'changes' | 'rename' | 'duplicate';

/** The screen once the field catalogue is known: the editor and results, beside the saved and starter scans. */
function CustomScansWorkspace({ catalog }: { catalog: readonly CatalogField[] }) {
  const editor = useScanEditor(catalog);
  const run = useRunScan();
  const list = useScansList();
  const save = useSaveScan();
  const remove = useDeleteScan();
  const [problem, setProblem] = useState<string | null>(null);
  const [purpose, setPurpose] = useState<SavePurpose | null>(null);
  const [renaming, setRenaming] = useState<SavedScan | null>(null);
  const [deleting, setDeleting] = useState<SavedScan | null>(null);
  const saving = save.isPending ? purpose : null;

  function onRun() {
    const request = editor.runRequest();
    setProblem(request.ok ? null : request.problem);
    if (request.ok) run.mutate(request.body);
  }

  function send(input: SaveScanInput, kind: SavePurpose, after?: (scan: SavedScan) => void) {
    setPurpose(kind);
    save.mutate(input, {
      onSuccess: (answer) => {
        notifySuccess(answer.msg);
        after?.(answer.scan);
      },
      onError: (error) => notifyError(error.message, 'The scan could not be saved.'),
    });
  }

  function onSave(asNew: boolean) {
    const name = editor.name.trim();
    const request = editor.saveRequest(name);
    setProblem(request.ok ? null : request.problem);
    if (!request.ok) return;
    const id = asNew ? undefined : (editor.openScanId ?? undefined);
    send(id === undefined ? { body: request.body } : { id, body: request.body }, asNew ? 'new' : 'changes', (scan) => {
      editor.setOpenScanId(scan.id);
      editor.setName(scan.name);
    });
  }

  function onOpen(scan: SavedScan) {
    editor.load({ id: scan.id, name: scan.name, universe: scan.universe, formula: scan.formula, conditions: scan.conditions });
    run.reset();
    setProblem(null);
  }

  function onUseTemplate(template: ScanTemplate) {
    editor.load({ id: null, name: template.name, universe: template.universe, formula: template.formula, conditions: template.conditions });
    run.reset();
    setProblem(null);
    notifyInfo(`“${template.name}” is in the editor: run it, or save it to keep it.`);
  }

  function onRename(scan: SavedScan, name: string) {
    send({ id: scan.id, body: { name, universe: scan.universe, formula: scan.formula } }, 'rename', (saved) => {
      setRenaming(null);
      if (editor.openScanId === saved.id) editor.setName(saved.name);
    });
  }

  function onDuplicate(scan: SavedScan) {
    const taken = (list.data?.scans ?? []).map((other) => other.name);
    send({ body: { name: copyName(scan.name, taken), universe: scan.universe, formula: scan.formula } }, 'duplicate');
  }

  function onDelete(scan: SavedScan) {
    setDeleting(null);
    remove.mutate(scan.id, {
      onSuccess: (answer) => {
        notifySuccess(answer.msg);
        if (editor.openScanId === scan.id) editor.setOpenScanId(null);
      },
      onError: (error) => notifyError(error.message, 'The scan could not be deleted.'),
    });
  }

  const saved = list.data?.scans ?? [];
  const openScan = saved.find((scan) => scan.id === editor.openScanId) ?? null;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Stack gap="lg">
          <ScanEditor
            editor={editor}
            catalog={catalog}
            running={run.isPending}
            problem={problem}
            onRun={onRun}
            footer={
              <SaveScanBar
                name={editor.name}
                onNameChange={editor.setName}
                openScanName={editor.openScanId === null ? null : (openScan?.name ?? editor.name)}
                savedCount={saved.length}
                limit={list.data?.limit ?? null}
                saving={saving === 'new' || saving === 'changes' ? saving : null}
                onSave={onSave}
                onNew={() => {
                  editor.reset();
                  run.reset();
                  setProblem(null);
                }}
              />
            }
          />
          <ScanResults run={run} onRetry={() => run.variables && run.mutate(run.variables)} />
          <BacktestPanel scan={openScan} opening={editor.openScanId !== null && openScan === null && list.isFetching} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="xl">
          <SavedScansPanel
            list={list}
            openScanId={editor.openScanId}
            busy={save.isPending || remove.isPending}
            onOpen={onOpen}
            onRename={setRenaming}
            onDuplicate={onDuplicate}
            onDelete={setDeleting}
          />
          <StarterScans templates={list.data?.templates ?? []} onUse={onUseTemplate} />
        </Stack>
      </Grid.Col>
      <RenameScanModal scanName={renaming?.name ?? null} saving={saving === 'rename'} onRename={(name) => renaming && onRename(renaming, name)} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        question={deleting ? `Delete the scan “${deleting.name}”? This cannot be undone.` : ''}
        confirmLabel="Delete"
        onConfirm={() => deleting && onDelete(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Grid>
  );
}

/** Custom Scans (issue 26, docs/custom-scans.md): build a scan, run it now or as of a past session, save it. */
export function CustomScansScreen() {
  const fields = useScanFields();
  let body;
  if (fields.isPending) {
    body = (
      <Stack gap="md" aria-busy>
        <Skeleton h={56} radius="md" />
        <Skeleton h={220} radius="md" />
      </Stack>
    );
  } else if (fields.isError) {
    body = (
      <Alert color={TONE.failure} variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="The fields a scan can test could not be loaded.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{fields.error.message}</Text>
          <Button size="xs" color={TONE.failure} onClick={() => void fields.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    body = <CustomScansWorkspace catalog={fields.data} />;
  }
  return (
    <>
      <ScreenHeader title="Custom Scans" description="Write your own screen: conditions on daily-bar fields, run over a universe now or as of a past session, saved to run again." />
      {body}
    </>
  );
}

export { CustomScansScreen as Component };
