import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { Box, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { createWebhookRequest, WEBHOOK_ALERT_TYPE_NAMES, WEBHOOK_ALERT_TYPES, type CreateWebhookRequest, type Webhook, type WebhookAlertType } from '@signalboard/core';
import { useId, useState, type FormEvent } from 'react';
import { TONE } from '../../theme';
import { WEBHOOK_URL_PLACEHOLDER } from './webhook-texts';

type Field = 'name' | 'url' | 'alert_types';
type Problems = Partial<Record<Field, string>>;

/** The contract's messages for what is missing or wrong, one per field (its first). */
function problemsOf(values: CreateWebhookRequest): Problems {
  const parsed = createWebhookRequest.safeParse(values);
  if (parsed.success) return {};
  const problems: Problems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    problems[field] ??= issue.message;
  }
  return problems;
}

/**
 * Adding or editing a webhook: name, URL and alert types. The contract's messages show once Save was
 * pressed (and follow the typing from then on); the server's refusal (an https-only or private-address
 * URL, the limit) shows under the form, which keeps everything typed. `onSave` answers the refusal's
 * msg, or null when saved (the caller then closes the modal).
 */
export function WebhookFormModal({ webhook, onSave, onClose }: { webhook: Webhook | null; onSave: (values: CreateWebhookRequest) => Promise<string | null>; onClose: () => void }) {
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [types, setTypes] = useState<WebhookAlertType[]>(webhook?.alert_types ?? []);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const typesErrorId = useId();
  const values: CreateWebhookRequest = { name, url, alert_types: types };
  const problems = tried ? problemsOf(values) : {};
  const all = types.length === WEBHOOK_ALERT_TYPES.length;

  const toggle = (type: WebhookAlertType, checked: boolean) =>
    setTypes((current) => WEBHOOK_ALERT_TYPES.filter((candidate) => (candidate === type ? checked : current.includes(candidate))));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problemsOf(values)).length > 0) return;
    setSaving(true);
    setRefusal(null);
    const refused = await onSave(values);
    // On success the caller closes (and unmounts) the form.
    if (refused !== null) {
      setRefusal(refused);
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={webhook ? `Edit webhook "${webhook.name}"` : 'Add webhook'} size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <TextInput label="Name" placeholder="Home automation" maxLength={60} value={name} onChange={(event) => setName(event.currentTarget.value)} error={problems.name} data-autofocus />
          <TextInput
            label="URL"
            description="Where your service receives the alerts; the server checks it when you save."
            placeholder={WEBHOOK_URL_PLACEHOLDER}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={2048}
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            error={problems.url}
          />
          <Box component="fieldset" aria-describedby={problems.alert_types ? typesErrorId : undefined} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Text component="legend" size="sm" fw={500} mb={6}>
              Alert types
            </Text>
            <Stack gap="xs">
              <Checkbox
                label="All"
                checked={all}
                indeterminate={types.length > 0 && !all}
                onChange={(event) => setTypes(event.currentTarget.checked ? [...WEBHOOK_ALERT_TYPES] : [])}
              />
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" pl="md">
                {WEBHOOK_ALERT_TYPES.map((type) => (
                  <Checkbox key={type} label={WEBHOOK_ALERT_TYPE_NAMES[type]} checked={types.includes(type)} onChange={(event) => toggle(type, event.currentTarget.checked)} />
                ))}
              </SimpleGrid>
            </Stack>
            {problems.alert_types ? (
              <Text id={typesErrorId} size="sm" c={TONE.failure} mt={6}>
                {problems.alert_types}
              </Text>
            ) : null}
          </Box>
          {refusal ? (
            <Text size="sm" fw={500} c={TONE.failure} role="alert" style={{ overflowWrap: 'anywhere' }}>
              {refusal}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
