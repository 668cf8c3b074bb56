import { Button, Group, Modal, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { SCAN_NAME_MAX } from './save-scan-bar';

/** Rename a saved scan: its new name, then Rename (the scan is saved again with it) or Cancel. */
export function RenameScanModal({ scanName, saving, onRename, onClose }: { scanName: string | null; saving: boolean; onRename: (name: string) => void; onClose: () => void }) {
  return (
    <Modal opened={scanName !== null} onClose={onClose} title="Rename the scan" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {scanName !== null && <RenameForm key={scanName} scanName={scanName} saving={saving} onRename={onRename} onClose={onClose} />}
    </Modal>
  );
}

function RenameForm({ scanName, saving, onRename, onClose }: { scanName: string; saving: boolean; onRename: (name: string) => void; onClose: () => void }) {
  const [name, setName] = useState(scanName);
  const missing = name.trim() === '';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!missing && !saving) onRename(name.trim());
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <TextInput label="New name" value={name} maxLength={SCAN_NAME_MAX} onChange={(event) => setName(event.currentTarget.value)} error={missing ? 'Name is required' : undefined} data-autofocus />
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={missing || saving}>
          {saving ? 'Saving...' : 'Rename'}
        </Button>
      </Group>
    </form>
  );
}
