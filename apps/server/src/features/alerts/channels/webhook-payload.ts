/**
 * The body of a webhook delivery (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): the alert's type, symbol,
 * message, data and links, under an id that is the same for every attempt to one endpoint, so a
 * receiver can drop a repeat. The test delivery has the same shape with type 'alert.test'.
 */
import { alertHistoryTypeName, type WebhookPayload } from '@signalboard/core';

export interface PayloadEvent {
  id: number;
  alertType: string;
  symbol: string;
  smsText: string;
  emailSubject: string;
  emailText: string;
  data: unknown;
  firedAt: Date;
}

/** What "Send test" sends (type alert.test): a Current Price alert on TEST that says it is a test of `kindName` "`name`". */
export function testAlertEvent(kindName: string, name: string, at: Date): PayloadEvent {
  return {
    id: 0,
    alertType: 'CURRENT_PRICE',
    symbol: 'TEST',
    smsText: `Signalboard test alert: your ${kindName} channel works.`,
    emailSubject: 'Signalboard test alert',
    emailText: `This is a test delivery to "${name}". Real alerts come the same way.`,
    data: { test: true },
    firedAt: at,
  };
}

/** The screen a type's alert is about (the history for the rest). */
const SCREEN_OF: Readonly<Record<string, string>> = {
  PERCENT_DROP: '/dashboard/dropscanner',
  CURRENT_PRICE: '/dashboard/dropscanner',
  LEVEL_SYSTEM: '/dashboard/dropscanner',
  BITCOIN: '/dashboard/cryptoscanner',
  OPTION_ALERT: '/dashboard/options2',
  SAVED_OPTION_TRADE: '/dashboard/options2',
  GENERAL_NEWS: '/dashboard/generalnews',
  'NEWS+TRUMP+MAG7+ALPHA': '/dashboard/trumpnews',
  'NEWS+TRUMP+MAG7+GNEWS': '/dashboard/trumpnews',
  STOCK_DROP_ALERTS: '/dashboard/drop',
  SAVED_STOCK_SCANNER: '/dashboard/drop',
  ALLSTOCKS_PROGRESS_ALERT: '/dashboard/stockshort',
  CUSTOM_SCAN: '/dashboard/scans',
};

/** The id of one alert's deliveries to one endpoint (also the webhook-id header). */
export const webhookEventId = (eventId: number, endpointId: number) => `alert_${eventId}_${endpointId}`;

export function webhookPayload(event: PayloadEvent, id: string, publicUrl: string, type: WebhookPayload['type'], now: Date): WebhookPayload {
  const base = publicUrl.replace(/\/$/, '');
  const screen = SCREEN_OF[event.alertType];
  return {
    id,
    type,
    timestamp: now.toISOString(),
    data: {
      alert_type: event.alertType,
      type_name: alertHistoryTypeName(event.alertType),
      symbol: event.symbol,
      message: event.smsText,
      subject: event.emailSubject,
      text: event.emailText,
      fired_at: event.firedAt.toISOString(),
      data: event.data && typeof event.data === 'object' ? (event.data as Record<string, unknown>) : {},
      links: { history: `${base}/dashboard/alert?tab=history`, screen: screen ? `${base}${screen}` : null },
    },
  };
}
