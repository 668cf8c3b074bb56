/**
 * The alert history (issue 15): the signed-in user's fired alerts, each with its rule snapshot, the data
 * that fired it and each channel's delivery timeline; the same list as CSV.
 */
import {
  isWebhookKind,
  recordColumns,
  toCsv,
  ALERT_HISTORY_CSV_COLUMNS,
  ALERT_HISTORY_CSV_MAX_ALERTS,
  ALERT_HISTORY_DEFAULT_LIMIT,
  ALERT_HISTORY_DEFAULT_TIME_ZONE,
  alertDeliveryReasonText,
  alertDeliveryStatusText,
  alertHistoryTypeName,
  nextIsoDay,
  zonedDayStartMs,
  type AlertHistoryDelivery,
  type AlertHistoryFilters,
  type AlertHistoryItem,
  type GetAlertHistoryResponse,
} from '@signalboard/core';
import type { AlertEventFilter, AlertHistoryRepo } from './history.repo';

const CSV_CHUNK = 500;

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The filters as instants: from/to are whole days in the query's time zone (to inclusive). */
export function eventFilter(filters: AlertHistoryFilters): AlertEventFilter {
  const zone = filters.time_zone || ALERT_HISTORY_DEFAULT_TIME_ZONE;
  const filter: AlertEventFilter = {};
  if (filters.alert_type) filter.alertType = filters.alert_type;
  if (filters.symbol) filter.symbol = filters.symbol;
  if (filters.from) filter.fromMs = zonedDayStartMs(filters.from, zone);
  if (filters.to) filter.beforeMs = zonedDayStartMs(nextIsoDay(filters.to), zone);
  return filter;
}

export function createAlertHistoryService(deps: { repo: Pick<AlertHistoryRepo, 'events' | 'count' | 'deliveries' | 'steps'> }) {
  const { repo } = deps;

  async function items(userId: number, filter: AlertEventFilter, offset: number, limit: number): Promise<AlertHistoryItem[]> {
    const events = await repo.events(userId, filter, { offset, limit });
    const deliveries = await repo.deliveries(
      userId,
      events.map((event) => event.id),
    );
    const steps = await repo.steps(deliveries.map((delivery) => delivery.id));
    const stepsOf = new Map<number, AlertHistoryDelivery['steps']>();
    for (const step of steps) {
      const list = stepsOf.get(step.deliveryId) ?? [];
      list.push({ status: step.status, reason: step.reason, at: step.at.toISOString() });
      stepsOf.set(step.deliveryId, list);
    }
    const deliveriesOf = new Map<number, AlertHistoryDelivery[]>();
    for (const delivery of deliveries) {
      const list = deliveriesOf.get(delivery.eventId) ?? [];
      list.push({
        channel: delivery.channel === 'email' ? 'email' : delivery.channel === 'webhook' ? 'webhook' : 'sms',
        endpoint: delivery.channel === 'webhook' ? delivery.endpointName : null,
        endpoint_kind: delivery.channel === 'webhook' && isWebhookKind(delivery.endpointKind) ? delivery.endpointKind : null,
        status: delivery.status,
        reason: delivery.reason,
        attempts: delivery.attempts,
        possibly_duplicate: delivery.possiblyDuplicate,
        updated_at: delivery.updatedAt.toISOString(),
        steps: stepsOf.get(delivery.id) ?? [],
      });
      deliveriesOf.set(delivery.eventId, list);
    }
    return events.map((event) => ({
      id: event.id,
      fired_at: event.firedAt.toISOString(),
      alert_type: event.alertType,
      type_name: alertHistoryTypeName(event.alertType),
      symbol: event.symbol,
      message: event.smsText,
      email_subject: event.emailSubject,
      rule: asRecord(event.rule),
      data: asRecord(event.data),
      deliveries: deliveriesOf.get(event.id) ?? [],
    }));
  }

  return {
    async page(userId: number, filters: AlertHistoryFilters): Promise<GetAlertHistoryResponse['data']> {
      const page = filters.page ?? 1;
      const limit = filters.limit ?? ALERT_HISTORY_DEFAULT_LIMIT;
      const filter = eventFilter(filters);
      const [total, list] = await Promise.all([repo.count(userId, filter), items(userId, filter, (page - 1) * limit, limit)]);
      return { items: list, total, page, limit, ...(page * limit < total ? { next: page + 1 } : {}) };
    },

    /**
     * Every matching alert (newest first, at most ALERT_HISTORY_CSV_MAX_ALERTS) as CSV: one line per
     * delivery; an alert without deliveries has one line with the channel columns empty.
     */
    async csv(userId: number, filters: AlertHistoryFilters): Promise<string> {
      const filter = eventFilter(filters);
      const rows: Array<Record<(typeof ALERT_HISTORY_CSV_COLUMNS)[number], string | number | boolean | null>> = [];
      for (let offset = 0; offset < ALERT_HISTORY_CSV_MAX_ALERTS; offset += CSV_CHUNK) {
        const chunk = await items(userId, filter, offset, Math.min(CSV_CHUNK, ALERT_HISTORY_CSV_MAX_ALERTS - offset));
        for (const item of chunk) {
          const price = typeof item.data.price === 'number' ? item.data.price : null;
          const source = typeof item.data.source === 'string' ? item.data.source : null;
          const asOf = typeof item.data.asOf === 'string' ? item.data.asOf : null;
          const common = { fired_at: item.fired_at, alert_type: item.alert_type, type_name: item.type_name, symbol: item.symbol, message: item.message, price, source, as_of: asOf };
          if (item.deliveries.length === 0) {
            rows.push({ ...common, channel: null, status: null, status_text: null, reason: null, reason_text: null, attempts: null, possibly_duplicate: null, steps: null });
          }
          for (const delivery of item.deliveries) {
            rows.push({
              ...common,
              channel: delivery.channel === 'webhook' ? `${delivery.endpoint_kind ?? 'webhook'}: ${delivery.endpoint ?? '(deleted)'}` : delivery.channel,
              status: delivery.status,
              status_text: alertDeliveryStatusText(delivery.status),
              reason: delivery.reason,
              reason_text: alertDeliveryReasonText(delivery.reason),
              attempts: delivery.attempts,
              possibly_duplicate: delivery.possibly_duplicate,
              steps: delivery.steps.map((step) => `${step.at} ${step.status}${step.reason ? ` (${step.reason})` : ''}`).join('; '),
            });
          }
        }
        if (chunk.length < CSV_CHUNK) break;
      }
      return toCsv(recordColumns(ALERT_HISTORY_CSV_COLUMNS), rows);
    },
  };
}

export type AlertHistoryService = ReturnType<typeof createAlertHistoryService>;
