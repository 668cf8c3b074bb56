import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { Box, Button, Checkbox, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  createWebhookRequest,
  NTFY_DEFAULT_SERVER,
  WEBHOOK_ALERT_TYPE_NAMES,
  WEBHOOK_ALERT_TYPES,
  ADDED_WEBHOOK_KINDS,
  QUIET_HOURS_KINDS,
  WEBHOOK_KIND_NAMES,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookAlertType,
  type WebhookKind,
} from '@signalboard/core';
import { useId, useState, type FormEvent } from 'react';
import { TONE } from '../../theme';
import { DISCORD_URL_PLACEHOLDER, WEBHOOK_URL_PLACEHOLDER } from './webhook-texts';

type Field = 'kind' | 'name' | 'url' | 'alert_types' | 'topic' | 'token';
type Problems = Partial<Record<Field, string>>;

/** What the form saves: a new endpoint, or the changes to the one edited. */
export type WebhookFormSave = { mode: 'create'; body: CreateWebhookRequest } | { mode: 'update'; body: UpdateWebhookRequest };

/**
 * The contract's messages for what is missing or wrong, one per field (its first). An edit is checked
 * with the create rules over what it sends; a field it leaves out (a Discord URL kept as it is) is not.
 */
function problemsOf(kind: WebhookKind, body: CreateWebhookRequest | UpdateWebhookRequest): Problems {
  // A Telegram chat or a push device has only a name and alert types here: checked as a webhook's.
  const connected = !(ADDED_WEBHOOK_KINDS as readonly string[]).includes(kind);
  const parsed = createWebhookRequest.safeParse(connected ? { ...body, kind: 'webhook', url: 'https://connected.invalid' } : { ...body, kind });
  if (parsed.success) return {};
  const problems: Problems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (!(field in body)) continue;
    problems[field] ??= issue.message;
  }
  return problems;
}

const NAME_PLACEHOLDERS: Record<WebhookKind, string> = { webhook: 'Home automation', discord: 'Team chat', ntfy: 'Phone', telegram: 'My chat', push: 'Phone' };
const KIND_CHOICES = ADDED_WEBHOOK_KINDS.map((kind) => ({ value: kind, label: WEBHOOK_KIND_NAMES[kind] }));

/** Each kind's URL field starts apart: a Discord endpoint's URL is never read back, an ntfy one's is its server. */
function startingUrls(webhook: Webhook | null): Record<WebhookKind, string> {
  const urls: Record<WebhookKind, string> = { webhook: '', discord: '', ntfy: NTFY_DEFAULT_SERVER, telegram: '', push: '' };
  if (webhook && webhook.kind !== 'discord') urls[webhook.kind] = webhook.url;
  return urls;
}

/**
 * Adding or editing an endpoint. Adding starts with its kind (Webhook, Discord, ntfy; an edit keeps
 * it): a webhook has its URL; a Discord endpoint its channel webhook URL (when editing, left empty to
 * keep the one on file, which is never read back); an ntfy endpoint its server, topic and optional
 * access token (never read back either: kept when left empty, or removed). Every kind has a name and
 * alert types. The contract's messages show once Save was pressed (and follow the typing from then
 * on); the server's refusal (an https-only or private-address URL, the limit) shows under the form,
 * which keeps everything typed. `onSave` answers the refusal's msg, or null when saved (the caller
 * then closes the modal).
 */
export function WebhookFormModal({ webhook, onSave, onClose }: { webhook: Webhook | null; onSave: (save: WebhookFormSave) => Promise<string | null>; onClose: () => void }) {
  const editing = webhook !== null;
  const [kind, setKind] = useState<WebhookKind>(webhook?.kind ?? 'webhook');
  const [name, setName] = useState(webhook?.name ?? '');
  const [urls, setUrls] = useState(() => startingUrls(webhook));
  const [topic, setTopic] = useState(webhook?.topic ?? '');
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const [alsoQuiet, setAlsoQuiet] = useState(webhook?.also_quiet_hours ?? false);
  const connected = QUIET_HOURS_KINDS.includes(kind);
  const [types, setTypes] = useState<WebhookAlertType[]>(webhook?.alert_types ?? []);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const kindLabelId = useId();
  const typesErrorId = useId();
  const url = urls[kind];
  const tokenOnFile = editing && webhook.has_token;

  /** What Save sends: on an edit, a Discord URL only when one was typed, an ntfy token only when typed or removed. */
  function body(): CreateWebhookRequest | UpdateWebhookRequest {
    const ntfy = kind === 'ntfy' ? { topic, ...(removeToken ? { token: '' } : token.trim() !== '' ? { token } : {}) } : {};
    if (connected) return { name, alert_types: types, also_quiet_hours: alsoQuiet };
    if (!editing) return { kind: kind as CreateWebhookRequest['kind'], name, url, alert_types: types, ...ntfy };
    const keepUrl = kind === 'discord' && url.trim() === '';
    return { name, ...(keepUrl ? {} : { url }), alert_types: types, ...ntfy };
  }
  const problems = tried ? problemsOf(kind, body()) : {};
  const all = types.length === WEBHOOK_ALERT_TYPES.length;

  const toggle = (type: WebhookAlertType, checked: boolean) =>
    setTypes((current) => WEBHOOK_ALERT_TYPES.filter((candidate) => (candidate === type ? checked : current.includes(candidate))));
  const setUrl = (value: string) => setUrls((current) => ({ ...current, [kind]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    const sent = body();
    if (Object.keys(problemsOf(kind, sent)).length > 0) return;
    setSaving(true);
    setRefusal(null);
    const refused = await onSave(editing ? { mode: 'update', body: sent as UpdateWebhookRequest } : { mode: 'create', body: sent as CreateWebhookRequest });
    // On success the caller closes (and unmounts) the form.
    if (refused !== null) {
      setRefusal(refused);
      setSaving(false);
    }
  }

  const urlInput = { type: 'url', inputMode: 'url', autoComplete: 'off', spellCheck: false, maxLength: 2048, value: url, error: problems.url } as const;

  return (
    <Modal opened onClose={onClose} title={webhook ? `Edit "${webhook.name}"` : 'Add channel'} size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {editing ? (
            <Text size="sm">
              <Text span size="sm" fw={500}>
                Kind:
              </Text>{' '}
              {WEBHOOK_KIND_NAMES[kind]}
            </Text>
          ) : (
            <Stack gap={4}>
              <Text id={kindLabelId} size="sm" fw={500}>
                Kind
              </Text>
              <SegmentedControl<(typeof ADDED_WEBHOOK_KINDS)[number]> aria-labelledby={kindLabelId} data={KIND_CHOICES} value={kind as (typeof ADDED_WEBHOOK_KINDS)[number]} onChange={setKind} fullWidth />
            </Stack>
          )}
          <TextInput label="Name" placeholder={NAME_PLACEHOLDERS[kind]} maxLength={60} value={name} onChange={(event) => setName(event.currentTarget.value)} error={problems.name} data-autofocus />
          {kind === 'webhook' ? (
            <TextInput
              label="URL"
              description="Where your service receives the alerts; the server checks it when you save."
              placeholder={WEBHOOK_URL_PLACEHOLDER}
              onChange={(event) => setUrl(event.currentTarget.value)}
              {...urlInput}
            />
          ) : kind === 'discord' ? (
            <TextInput
              label="Discord webhook URL"
              description={editing ? 'Leave empty to keep the current URL.' : 'In Discord: channel settings → Integrations → Webhooks → Copy Webhook URL.'}
              placeholder={DISCORD_URL_PLACEHOLDER}
              onChange={(event) => setUrl(event.currentTarget.value)}
              {...urlInput}
            />
          ) : connected ? (
            <Checkbox
              label="Also during quiet hours"
              description="Send to this chat or device during your SMS quiet hours too; otherwise alerts wait until the quiet hours end."
              checked={alsoQuiet}
              onChange={(event) => setAlsoQuiet(event.currentTarget.checked)}
            />
          ) : (
            <>
              <TextInput label="Server" description="ntfy.sh or your own ntfy server" placeholder={NTFY_DEFAULT_SERVER} onChange={(event) => setUrl(event.currentTarget.value)} {...urlInput} />
              <TextInput
                label="Topic"
                description="Subscribe to this topic in the ntfy app. On a public server anyone who knows the topic can read it: pick a long, unguessable name."
                autoComplete="off"
                spellCheck={false}
                maxLength={64}
                value={topic}
                onChange={(event) => setTopic(event.currentTarget.value)}
                error={problems.topic}
              />
              <TextInput
                label="Access token"
                description="Only for a protected topic. Stored encrypted; never shown again."
                type="password"
                autoComplete="off"
                spellCheck={false}
                maxLength={200}
                placeholder={tokenOnFile ? '•••••• (on file; leave empty to keep)' : undefined}
                value={removeToken ? '' : token}
                disabled={removeToken}
                onChange={(event) => setToken(event.currentTarget.value)}
                error={problems.token}
              />
              {tokenOnFile ? <Checkbox label="Remove the access token" checked={removeToken} onChange={(event) => setRemoveToken(event.currentTarget.checked)} /> : null}
            </>
          )}
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
