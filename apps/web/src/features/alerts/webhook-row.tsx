import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import { Badge, Button, Group, Paper, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { WEBHOOK_KIND_NAMES, type Webhook } from '@signalboard/core';
import { TONE } from '../../theme';
import { alertTypesSummary, lastSuccessText, webhookStateBadge } from './webhook-texts';

export type WebhookAction = 'test' | 'edit' | 'rotate' | 'toggle' | 'delete';

/** What a busy button says while its call runs. */
const BUSY_TEXT: Record<WebhookAction, string> = { test: 'Sending...', edit: 'Edit', rotate: 'Rotating...', toggle: 'Saving...', delete: 'Deleting...' };

function AlertTypes({ webhook }: { webhook: Webhook }) {
  const { short, details } = alertTypesSummary(webhook.alert_types);
  if (!details) return <Text size="sm">Alert types: {short}</Text>;
  // The names on hover or focus, and for screen readers in the text itself.
  return (
    <Text size="sm">
      Alert types:{' '}
      <Tooltip label={details} multiline maw={360} events={{ hover: true, focus: true, touch: true }}>
        <Text span size="sm" tabIndex={0} style={{ textDecoration: 'underline dotted', cursor: 'help' }}>
          {short}
          <VisuallyHidden>: {details}</VisuallyHidden>
        </Text>
      </Tooltip>
    </Text>
  );
}

/**
 * One endpoint: its name and kind, URL (a Discord one masked, an ntfy one's server; ntfy's topic and
 * whether an access token is on file), alert types, state (Active, Failing since, Disabled with the reason),
 * last success and last answer, and its actions (Rotate secret for a webhook only), each named with the endpoint ("Send test to Home
 * automation"). `busy`: the action under way on this endpoint; `locked`: some call is under way.
 */
export function WebhookRow({
  webhook,
  busy,
  locked,
  onAction,
  thisDevice = false,
}: {
  webhook: Webhook;
  busy: WebhookAction | null;
  locked: boolean;
  onAction: (action: WebhookAction) => void;
  /** A push device that is this browser. */
  thisDevice?: boolean;
}) {
  const badge = webhookStateBadge(webhook);
  const button = (action: WebhookAction, text: string, label: string, extra: { color?: string; variant?: string } = {}) => (
    <Button size="xs" variant={extra.variant ?? 'default'} color={extra.color} disabled={locked} aria-label={busy === action ? undefined : label} onClick={() => onAction(action)}>
      {busy === action ? BUSY_TEXT[action] : text}
    </Button>
  );
  return (
    <Paper component="li" withBorder radius="md" p="md" aria-label={webhook.name}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{webhook.name}</Text>
            <Badge variant="outline" radius="sm" size="sm" color={TONE.neutral} tt="none">
              {WEBHOOK_KIND_NAMES[webhook.kind]}
            </Badge>
            {thisDevice ? (
              <Badge variant="light" radius="sm" size="sm" color={TONE.info} tt="none">
                This device
              </Badge>
            ) : null}
          </Group>
          <Badge variant="light" radius="sm" color={badge.color} tt="none">
            {badge.label}
          </Badge>
        </Group>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {webhook.url}
        </Text>
        {webhook.kind === 'ntfy' ? (
          <Group gap="md" wrap="wrap" style={{ rowGap: 0 }}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Topic: {webhook.topic ?? ''}
            </Text>
            {webhook.has_token ? <Text size="sm">Access token on file</Text> : null}
          </Group>
        ) : null}
        <AlertTypes webhook={webhook} />
        {webhook.kind === 'telegram' || webhook.kind === 'push' ? (
          <Text size="sm">{webhook.also_quiet_hours ? 'Also during quiet hours' : 'Held during your SMS quiet hours'}</Text>
        ) : null}
        {webhook.state === 'disabled' && webhook.disabled_reason ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {webhook.disabled_reason}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {lastSuccessText(webhook)}
          {webhook.last_answer ? ` · Last answer: ${webhook.last_answer}` : ''}
        </Text>
        <Group gap="xs" wrap="wrap" pt={4}>
          {button('test', 'Send test', `Send test to ${webhook.name}`)}
          {button('edit', 'Edit', `Edit ${webhook.name}`)}
          {webhook.kind === 'webhook' ? button('rotate', 'Rotate secret', `Rotate secret of ${webhook.name}`) : null}
          {webhook.enabled ? button('toggle', 'Turn off', `Turn off ${webhook.name}`) : button('toggle', 'Turn on', `Turn on ${webhook.name}`)}
          {button('delete', 'Delete', `Delete ${webhook.name}`, { color: TONE.failure, variant: 'subtle' })}
        </Group>
      </Stack>
    </Paper>
  );
}
