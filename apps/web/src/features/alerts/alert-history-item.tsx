import { Badge, Button, Group, Paper, Stack, Text, type BadgeProps } from '@mantine/core';
import {
  ALERT_DELIVERY_STATUS_HINTS,
  POSSIBLY_DUPLICATE_TEXT,
  WEBHOOK_KIND_NAMES,
  alertDeliveryReasonText,
  alertDeliveryStatusText,
  type AlertDeliveryStatus,
  type AlertHistoryDelivery,
  type AlertHistoryItem,
} from '@signalboard/core';
import { useId, useState } from 'react';
import { dateAndTimeWithSeconds, newYorkTimeOfDay } from '../../components/en-us-format';
import { formatPrice, formatSignedPercent } from '../../components/format';
import { TONE } from '../../theme';

/** Status colours (docs/ui.md): delivered green, sent blue, failed red, expired yellow, held/queued grey. */
const STATUS_COLOR: Record<AlertDeliveryStatus, BadgeProps['color']> = {
  queued: TONE.neutral,
  sending: TONE.info,
  sent: TONE.info,
  delivered: TONE.success,
  failed: TONE.failure,
  expired: TONE.middling,
  suppressed: TONE.neutral,
};

const CHANNEL_NAMES = { sms: 'SMS', email: 'E-mail' } as const;

/**
 * A delivery's channel as the history names it: "SMS", "E-mail", "<kind> · <endpoint>" ("Webhook · Trading
 * bot", "Discord · Team chat", "ntfy · Phone") or, once the endpoint is deleted, "Webhook (deleted)".
 */
export function deliveryChannelName(delivery: Pick<AlertHistoryDelivery, 'channel' | 'endpoint' | 'endpoint_kind'>): string {
  if (delivery.channel !== 'webhook') return CHANNEL_NAMES[delivery.channel];
  const kind = WEBHOOK_KIND_NAMES[delivery.endpoint_kind ?? 'webhook'];
  return delivery.endpoint ? `${kind} · ${delivery.endpoint}` : `${kind} (deleted)`;
}
const NEW_YORK = 'America/New_York';

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "Nov 2, 2026, 2:05:07 PM" in the user's zone. */
export function formatLocalDateTime(iso: string): string {
  return dateAndTimeWithSeconds(new Date(iso));
}

/** "2:05 PM ET" (New York), shown beside the local time when the user is elsewhere. */
export function formatEasternTime(iso: string): string {
  return `${newYorkTimeOfDay(new Date(iso))} ET`;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
/** Prices of a dollar or more to 2 decimals; smaller (crypto) to 6. */
const price = (value: number) => formatPrice(value, Math.abs(value) >= 1 ? 2 : 6);

/** What fired the alert, as label/value pairs: price, previous close, change, target, level, threshold, source, as of. */
export function firingFacts(data: Record<string, unknown>): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  const at = num(data.price);
  if (at !== null) facts.push(['Price', price(at)]);
  const previous = num(data.previousClose);
  if (previous !== null) facts.push(['Prev close', price(previous)]);
  const change = num(data.changePercent);
  if (change !== null) facts.push(['Change', formatSignedPercent(change)]);
  const target = num(data.target);
  if (target !== null) facts.push(['Target', `${str(data.direction) ?? ''} ${price(target)}`.trim()]);
  const level = num(data.level);
  if (level !== null) facts.push(['Level', price(level)]);
  const threshold = num(data.threshold);
  if (threshold !== null) facts.push(['Threshold', `${threshold}%`]);
  facts.push(['Source', str(data.source) ?? 'not recorded']);
  const asOf = str(data.asOf);
  facts.push(['As of', asOf && !Number.isNaN(Date.parse(asOf)) ? formatLocalDateTime(asOf) : 'not recorded']);
  return facts;
}

/** The rule as it was when it fired, in one line. */
export function ruleSummary(rule: Record<string, unknown>): string {
  const parts: string[] = [];
  const symbols = Array.isArray(rule.stock_symbols) ? rule.stock_symbols.filter((symbol): symbol is string => typeof symbol === 'string') : [];
  // A Custom Scan alert names the saved scan that fired (its rule's symbols are scan ids).
  const scan = typeof rule.scan === 'object' && rule.scan !== null ? (rule.scan as Record<string, unknown>) : null;
  if (scan && str(scan.name)) parts.push(`scan "${str(scan.name)}"${str(scan.formula) ? `: ${str(scan.formula)}` : ''}`);
  else if (symbols.length > 0) parts.push(`symbols ${symbols.join(', ')}`);
  const threshold = num(rule.threshold_value);
  if (threshold !== null) parts.push(`threshold ${threshold}%`);
  if (Array.isArray(rule.targets)) {
    for (const target of rule.targets as Array<Record<string, unknown>>) {
      const value = num(target?.price);
      if (value !== null) parts.push(`${str(target.symbol) ?? ''} ${str(target.direction) ?? ''} ${price(value)}`.replace(/\s+/g, ' ').trim());
    }
  }
  if (typeof rule.enable_sms === 'boolean') parts.push(`SMS ${rule.enable_sms ? 'on' : 'off'}`);
  if (typeof rule.enable_email === 'boolean') parts.push(`e-mail ${rule.enable_email ? 'on' : 'off'}`);
  if (parts.length === 0) {
    // A saved idea's snapshot: its plain fields.
    for (const [key, value] of Object.entries(rule)) {
      if (parts.length >= 4) break;
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') parts.push(`${key} ${String(value)}`);
    }
  }
  return parts.length > 0 ? parts.join(' · ') : 'not recorded';
}

function DeliveryRow({ delivery }: { delivery: AlertHistoryDelivery }) {
  const [open, setOpen] = useState(false);
  const timelineId = useId();
  const status = delivery.status as AlertDeliveryStatus;
  const reason = alertDeliveryReasonText(delivery.reason);
  const channel = deliveryChannelName(delivery);
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} miw={52}>
          {channel}
        </Text>
        <Badge variant="light" radius="sm" color={STATUS_COLOR[status] ?? TONE.neutral} title={ALERT_DELIVERY_STATUS_HINTS[status]}>
          {alertDeliveryStatusText(delivery.status)}
        </Badge>
        {reason ? <Text size="sm">{reason}</Text> : null}
        {delivery.possibly_duplicate ? (
          <Badge variant="outline" radius="sm" color={TONE.middling}>
            {POSSIBLY_DUPLICATE_TEXT}
          </Badge>
        ) : null}
        {delivery.attempts > 1 ? (
          <Text size="sm" c="dimmed">
            {delivery.attempts} attempts
          </Text>
        ) : null}
        {delivery.steps.length > 0 ? (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls={open ? timelineId : undefined}
            aria-label={`${open ? 'Hide' : 'Show'} timeline of the ${channel} delivery`}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide timeline' : 'Show timeline'}
          </Button>
        ) : null}
      </Group>
      {open ? (
        <ol id={timelineId} aria-label={`${channel} delivery timeline`} style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
          {delivery.steps.map((step, index) => (
            <li key={`${step.at}-${index}`}>
              <Text size="sm" span style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatLocalDateTime(step.at)}
              </Text>{' '}
              <Text size="sm" span fw={600}>
                {alertDeliveryStatusText(step.status)}
              </Text>
              {alertDeliveryReasonText(step.reason) ? <Text size="sm" span>{` — ${alertDeliveryReasonText(step.reason)}`}</Text> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </Stack>
  );
}

/** One fired alert: when, what, the message, the data that fired it, the rule, and each channel's delivery. */
export function AlertHistoryCard({ item }: { item: AlertHistoryItem }) {
  const showEastern = localZone() !== NEW_YORK;
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={`${item.type_name} alert for ${item.symbol}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text fw={700} size="lg">
              {item.symbol}
            </Text>
            <Badge variant="light" radius="sm" color="brand">
              {item.type_name}
            </Badge>
          </Group>
          <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <time dateTime={item.fired_at}>{formatLocalDateTime(item.fired_at)}</time>
            {showEastern ? <Text span size="sm" c="dimmed">{` · ${formatEasternTime(item.fired_at)}`}</Text> : null}
          </Text>
        </Group>
        <Text size="sm">{item.message}</Text>
        <Group gap="md" wrap="wrap" style={{ rowGap: 4 }}>
          {firingFacts(item.data).map(([label, value]) => (
            <Text key={label} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
              <Text span size="sm" c="dimmed">
                {label}:
              </Text>{' '}
              {value}
            </Text>
          ))}
        </Group>
        <Text size="sm">
          <Text span size="sm" c="dimmed">
            Rule when it fired:
          </Text>{' '}
          {ruleSummary(item.rule)}
        </Text>
        <Stack gap={6} pt={4}>
          {item.deliveries.length === 0 ? (
            <Text size="sm" c="dimmed">
              No delivery recorded: no SMS, e-mail or webhook was sent for this alert.
            </Text>
          ) : (
            // One delivery per channel, and per endpoint for webhooks (two deleted endpoints' deliveries share a name).
            item.deliveries.map((delivery, index) => <DeliveryRow key={`${delivery.channel}-${delivery.endpoint ?? ''}-${index}`} delivery={delivery} />)
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
