import { Anchor, Box, Button, Checkbox, Group, NativeSelect, NumberInput, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import {
  ALERT_AUTO_PAUSED_MESSAGE,
  ALERT_SCANS_LOAD_FAILED_MESSAGE,
  ALERT_FAVORITES_LOAD_FAILED_MESSAGE,
  ALERT_MAX_SYMBOLS,
  ALERT_SAVE_FAILED_MESSAGE,
  ALERT_SAVING_MESSAGE,
  ALERT_SMS_NEEDS_PHONE_MESSAGE,
  ALERT_THRESHOLD_DEFAULT,
  ALERT_THRESHOLD_MAX,
  ALERT_THRESHOLD_MIN,
  ALERT_TYPE_NAMES,
  ALERT_TYPE_SYMBOL_SOURCE,
  ALERT_TYPES,
  alertFixedSymbols,
  alertLoadFailedMessage,
  alertPreferencesProblem,
  alertSavedMessage,
  alertTypeHasSymbols,
  alertTypeHasTargets,
  alertTypeHasThreshold,
  SCAN_UNIVERSE_LABELS,
  WEBHOOK_ALERT_TYPES,
  WEBHOOK_KIND_NAMES,
  type AlertRule,
  type AlertTargetDirection,
  type AlertType,
} from '@signalboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { alertRuleQuery, saveAlertPreferences } from './api/alert-rules';
import { updateWebhook, webhooksQuery } from './api/webhooks';
import { favoritesQuery } from '../../lib/api/favorites';
import { phoneOnFileQuery } from './api/phone';
import { savedScansQuery } from './api/saved-scans';
import { TONE } from '../../theme';
import { StatusLine, type StatusMessage } from './status-message';

/** 'Error: ' plus the server's msg, or the spec's general failure. */
export function saveFailure(error: unknown): StatusMessage {
  const text = error instanceof Error ? error.message.trim() : '';
  return { text: text ? `Error: ${text}` : ALERT_SAVE_FAILED_MESSAGE, tone: 'danger' };
}

interface Choice {
  /** What is stored: the symbol, the category, or a saved scan's id. */
  symbol: string;
  /** What the box says when it is not the symbol (a saved scan's name). */
  label?: string;
  description?: string;
}

/** A saved scan's formula as a choice's description: its universe and its first 80 characters. */
const scanDescription = (universe: keyof typeof SCAN_UNIVERSE_LABELS, formula: string) =>
  `${SCAN_UNIVERSE_LABELS[universe]} · ${formula.length > 80 ? `${formula.slice(0, 79)}…` : formula}`;

/**
 * The Alert Preferences card (spec §2, §5 "Alert preferences save", §8, §9; docs/rules/alerts.md): one rule per
 * alert type. Choosing a type loads its saved rule; the form starts from it (or the defaults).
 */
export function AlertPreferencesCard() {
  const [type, setType] = useState<AlertType>('PERCENT_DROP');
  const [status, setStatus] = useState<StatusMessage | null>(null);
  // Created already true (docs/rules/alerts.md): the symbols whose condition held at the save; each waits for a new crossing.
  const [notices, setNotices] = useState<string[]>([]);
  const rule = useQuery(alertRuleQuery(type));
  const favoritesNeeded = ALERT_TYPE_SYMBOL_SOURCE[type] === 'favorites';
  const favorites = useQuery({ ...favoritesQuery(), enabled: favoritesNeeded });
  // Custom Scan: the user's saved scans, by name; stored by id.
  const scansNeeded = ALERT_TYPE_SYMBOL_SOURCE[type] === 'saved_scans';
  const scans = useQuery({ ...savedScansQuery(), enabled: scansNeeded });

  const fixed = alertFixedSymbols(ALERT_TYPE_SYMBOL_SOURCE[type]);
  const choices: Choice[] | null = fixed
    ? fixed.map((symbol) => ({ symbol }))
    : favoritesNeeded
      ? (favorites.data?.map((stock) => ({ symbol: stock.symbol, description: stock.description })) ?? null)
      : scansNeeded
        ? (scans.data?.scans.map((scan) => ({ symbol: String(scan.id), label: scan.name, description: scanDescription(scan.universe, scan.formula) })) ?? null)
        : [];

  const loadStatus: StatusMessage | null = rule.isError
    ? { text: alertLoadFailedMessage(type), tone: 'danger' }
    : favoritesNeeded && favorites.isError
      ? { text: ALERT_FAVORITES_LOAD_FAILED_MESSAGE, tone: 'danger' }
      : scansNeeded && scans.isError
        ? { text: ALERT_SCANS_LOAD_FAILED_MESSAGE, tone: 'danger' }
        : null;

  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="alert-preferences-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="alert-preferences-title">
          Alert Preferences
        </Title>
        <NativeSelect
          label="Alert type"
          value={type}
          onChange={(event) => {
            setType(event.currentTarget.value as AlertType);
            setStatus(null);
            setNotices([]);
          }}
          data={ALERT_TYPES.map((value) => ({ value, label: ALERT_TYPE_NAMES[value] }))}
        />
        {rule.isPending || (favoritesNeeded && favorites.isPending) || (scansNeeded && scans.isPending) ? (
          <Stack gap="sm" aria-busy="true" aria-label={`Loading ${ALERT_TYPE_NAMES[type]} alert settings`}>
            <Skeleton height={120} />
            <Skeleton height={36} />
          </Stack>
        ) : (
          <PreferencesForm
            key={`${type}:${rule.dataUpdatedAt}`}
            type={type}
            rule={rule.data ?? null}
            choices={choices ?? []}
            allowed={choices ? choices.map((choice) => choice.symbol) : null}
            onStatus={setStatus}
            onNotices={setNotices}
          />
        )}
        <StatusLine status={status ?? loadStatus} label="Alert preferences status" />
        {notices.length > 0 ? (
          <Stack gap={4} aria-label="Already true at save">
            {notices.map((notice) => (
              <Text key={notice} size="sm">
                {notice}
              </Text>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

interface FormProps {
  type: AlertType;
  rule: AlertRule | null;
  choices: Choice[];
  /** The type's choice, checked on save; null when it could not be loaded (the server checks). */
  allowed: string[] | null;
  onStatus: (status: StatusMessage | null) => void;
  onNotices: (notices: string[]) => void;
}

interface TargetDraft {
  price: number | string;
  direction: AlertTargetDirection;
}

/** When a Custom Scan alert fires (docs/custom-scans.md "Custom Scan alerts"). */
export const CUSTOM_SCAN_TIMING =
  "New matches are sent after each session's close, and during the session (9:30 a.m.–4:00 p.m. New York) for scans whose conditions read prices only (no volume, earnings or news).";

function PreferencesForm({ type, rule, choices, allowed, onStatus, onNotices }: FormProps) {
  const queryClient = useQueryClient();
  const phone = useQuery(phoneOnFileQuery());
  const [symbols, setSymbols] = useState<string[]>(rule?.stock_symbols ?? []);
  const [threshold, setThreshold] = useState<number | string>(rule?.threshold_value ?? ALERT_THRESHOLD_DEFAULT);
  const [targets, setTargets] = useState<Record<string, TargetDraft>>(() =>
    Object.fromEntries((rule?.targets ?? []).map((target) => [target.symbol, { price: target.price, direction: target.direction }])),
  );
  const [sms, setSms] = useState(rule?.enable_sms ?? false);
  const [email, setEmail] = useState(rule?.enable_email ?? false);
  // The enabled flag: the rule's is_active when a rule exists, off otherwise (spec §2).
  const [active, setActive] = useState(rule?.is_active ?? false);
  const [saving, setSaving] = useState(false);
  const name = ALERT_TYPE_NAMES[type];
  // The connected channels (issue 27): a toggle each for this type; what the user changed, by endpoint id.
  const channels = useQuery(webhooksQuery());
  const [channelChoices, setChannelChoices] = useState<Record<number, boolean>>({});
  const channelOn = (endpoint: { id: number; alert_types: readonly string[] }) => channelChoices[endpoint.id] ?? endpoint.alert_types.includes(type);

  const scansSource = ALERT_TYPE_SYMBOL_SOURCE[type] === 'saved_scans';
  // A saved symbol no longer offered (a favourite or a saved scan deleted since) stays visible, so it can be unticked.
  const gone = symbols.filter((symbol) => !choices.some((choice) => choice.symbol === symbol));
  const offered: Choice[] = [...choices, ...gone.map((symbol) => ({ symbol, ...(scansSource ? { label: `Scan ${symbol}` } : {}), description: 'No longer available' }))];
  const target = (symbol: string): TargetDraft => targets[symbol] ?? { price: '', direction: 'above' };
  const setTarget = (symbol: string, change: Partial<TargetDraft>) => setTargets((current) => ({ ...current, [symbol]: { ...target(symbol), ...change } }));

  async function onSave(event: FormEvent) {
    event.preventDefault();
    const body = {
      alert_type: type,
      stock_symbols: alertTypeHasSymbols(type) ? symbols : [],
      threshold_value: alertTypeHasThreshold(type) ? (typeof threshold === 'number' ? threshold : Number.NaN) : null,
      enable_sms: sms,
      enable_email: email,
      is_active: active,
      ...(alertTypeHasTargets(type)
        ? {
            // A symbol without a price has no target ('Please enter a target price for X.').
            targets: symbols.flatMap((symbol) => {
              const { price, direction } = target(symbol);
              return typeof price === 'number' ? [{ symbol, price, direction }] : [];
            }),
          }
        : {}),
    };
    const problem = alertPreferencesProblem(body, allowed);
    if (problem) {
      onStatus({ text: problem, tone: 'danger' });
      return;
    }
    if (sms && phone.isSuccess && phone.data === null) {
      onStatus({ text: ALERT_SMS_NEEDS_PHONE_MESSAGE, tone: 'danger' });
      return;
    }
    setSaving(true);
    onNotices([]);
    onStatus({ text: ALERT_SAVING_MESSAGE, tone: 'info' });
    try {
      const answer = await saveAlertPreferences(body);
      // Each channel whose toggle changed takes this type, or no longer does.
      for (const endpoint of channels.data?.webhooks ?? []) {
        const on = channelChoices[endpoint.id];
        if (on === undefined || on === endpoint.alert_types.includes(type)) continue;
        const types = WEBHOOK_ALERT_TYPES.filter((candidate) => (candidate === type ? on : endpoint.alert_types.includes(candidate)));
        await updateWebhook(endpoint.id, { alert_types: types });
      }
      if (Object.keys(channelChoices).length > 0) {
        setChannelChoices({});
        await queryClient.invalidateQueries({ queryKey: webhooksQuery().queryKey });
      }
      onStatus({ text: alertSavedMessage(type), tone: 'success' });
      onNotices(answer.notices ?? []);
      queryClient.setQueryData(alertRuleQuery(type).queryKey, answer.data);
    } catch (error) {
      onStatus(saveFailure(error));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSave} noValidate>
      <Stack gap="md">
        {rule?.auto_paused_at && (
          <Text size="sm" fw={500} c={TONE.failure} data-testid="alert-auto-paused">
            {ALERT_AUTO_PAUSED_MESSAGE}
          </Text>
        )}
        {alertTypeHasSymbols(type) ? (
          <Checkbox.Group
            label={scansSource ? 'Saved scans' : 'Symbols'}
            description={`Up to ${ALERT_MAX_SYMBOLS}; ${symbols.length} chosen.${scansSource ? ` ${CUSTOM_SCAN_TIMING}` : ''}`}
            value={symbols}
            onChange={setSymbols}
          >
            <Box
              mt="xs"
              style={{ maxHeight: 200, overflowY: 'auto', border: '1px solid var(--sb-control-border)', borderRadius: 'var(--mantine-radius-md)' }}
              p="sm"
              data-testid="alert-symbol-list"
            >
              {offered.length === 0 ? (
                scansSource ? (
                  <Text size="sm" c="dimmed">
                    No saved scans yet.{' '}
                    <Anchor component={Link} to="/dashboard/scans" inherit>
                      Build and save one on the Custom Scans screen
                    </Anchor>
                    , then choose it here.
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    No favorite stocks yet. Add some on the WatchList screen.
                  </Text>
                )
              ) : (
                <Stack gap={8}>
                  {offered.map((choice) => (
                    <Checkbox key={choice.symbol} value={choice.symbol} label={choice.label ?? choice.symbol} description={choice.description} />
                  ))}
                </Stack>
              )}
            </Box>
          </Checkbox.Group>
        ) : (
          <Text size="sm" c="dimmed">
            {name} alerts follow the scanner's own list: there are no symbols to choose.
          </Text>
        )}
        {alertTypeHasThreshold(type) && (
          <NumberInput
            label="Drop Percentage"
            description={`${ALERT_THRESHOLD_MIN} to ${ALERT_THRESHOLD_MAX}; alert when a stock drops this much.`}
            suffix="%"
            min={ALERT_THRESHOLD_MIN}
            max={ALERT_THRESHOLD_MAX}
            clampBehavior="none"
            value={threshold}
            onChange={setThreshold}
            maw={240}
          />
        )}
        {alertTypeHasTargets(type) && symbols.length > 0 && (
          <Stack gap="xs" role="group" aria-label="Target prices">
            <Text size="sm" fw={500}>
              Target prices
            </Text>
            {symbols.map((symbol) => (
              <Group key={symbol} gap="sm" align="flex-end" wrap="wrap">
                <NumberInput
                  label={`Target price for ${symbol}`}
                  min={0}
                  decimalScale={8}
                  thousandSeparator=","
                  value={target(symbol).price}
                  onChange={(price) => setTarget(symbol, { price })}
                  style={{ flex: '1 1 180px' }}
                />
                <NativeSelect
                  label={`Direction for ${symbol}`}
                  value={target(symbol).direction}
                  onChange={(event) => setTarget(symbol, { direction: event.currentTarget.value as AlertTargetDirection })}
                  data={[
                    { value: 'above', label: 'Rises above' },
                    { value: 'below', label: 'Falls below' },
                  ]}
                  style={{ flex: '0 1 160px' }}
                />
              </Group>
            ))}
          </Stack>
        )}
        <Group gap="lg">
          <Switch label="SMS alerts" checked={sms} onChange={(event) => setSms(event.currentTarget.checked)} />
          <Switch label="E-mail alerts" checked={email} onChange={(event) => setEmail(event.currentTarget.checked)} />
          <Switch label="Enabled" checked={active} onChange={(event) => setActive(event.currentTarget.checked)} />
        </Group>
        {channels.data && channels.data.webhooks.length > 0 ? (
          <Group gap="lg" role="group" aria-label="Channels for this alert type">
            {channels.data.webhooks.map((endpoint) => (
              <Switch
                key={endpoint.id}
                label={`${WEBHOOK_KIND_NAMES[endpoint.kind]} · ${endpoint.name}`}
                checked={channelOn(endpoint)}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setChannelChoices((current) => ({ ...current, [endpoint.id]: checked }));
                }}
              />
            ))}
          </Group>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
