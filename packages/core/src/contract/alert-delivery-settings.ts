/**
 * The alert delivery settings' contract (docs/rules/alerts.md §4 "Delivery"): quiet hours in the
 * user's time zone, pause, and test sends; the messages the Alert System screen shows for them.
 */
import { z } from 'zod';
import { singleLineText } from '../validation/text';

export const ALERT_DEFAULT_TIME_ZONE = 'America/New_York';
export const SMS_QUIET_HOURS_DEFAULT = { enabled: true, start: '21:00', end: '08:00' } as const;
export const EMAIL_QUIET_HOURS_DEFAULT = { enabled: false, start: '21:00', end: '08:00' } as const;

export const TIME_ZONE_MESSAGE = 'Please choose a valid time zone.';
export const QUIET_HOURS_TIME_MESSAGE = 'Please enter quiet hours as HH:MM (00:00 to 23:59).';
export const QUIET_HOURS_SAME_MESSAGE = 'Quiet hours must start and end at different times.';
export const DELIVERY_SETTINGS_SAVED_MESSAGE = 'Delivery settings saved successfully!';
export const DELIVERY_SETTINGS_SAVE_FAILED_MESSAGE = 'Failed to save delivery settings.';
export const DELIVERY_SETTINGS_LOAD_FAILED_MESSAGE = 'Could not load delivery settings.';

/** Whether `zone` is an IANA time zone this runtime knows (e.g. 'Europe/Berlin'). */
export function isValidTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** HH:MM, 00:00 to 23:59. */
export const QUIET_HOURS_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

const quietTime = (name: string, example: string) =>
  singleLineText(name, { max: 5, required: QUIET_HOURS_TIME_MESSAGE, typeError: QUIET_HOURS_TIME_MESSAGE, maxMessage: QUIET_HOURS_TIME_MESSAGE, examples: [example] }).refine(
    (value) => QUIET_HOURS_TIME_PATTERN.test(value),
    { message: QUIET_HOURS_TIME_MESSAGE },
  );

/** Quiet hours: from `start` to `end` in the user's time zone (crossing midnight when end < start). */
export const quietHours = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    start: quietTime('start', '21:00'),
    end: quietTime('end', '08:00'),
  })
  .refine((hours) => hours.start !== hours.end, { message: QUIET_HOURS_SAME_MESSAGE });
export type QuietHours = z.output<typeof quietHours>;

/** Whether the local time `hhmm` falls in `hours` (start inclusive, end exclusive). */
export function inQuietHours(hours: QuietHours, hhmm: string): boolean {
  if (!hours.enabled) return false;
  return hours.start < hours.end ? hhmm >= hours.start && hhmm < hours.end : hhmm >= hours.start || hhmm < hours.end;
}

/** POST api/save_alert_delivery_settings. */
export const saveAlertDeliverySettingsRequest = z.object({
  time_zone: singleLineText('time_zone', { max: 64, required: TIME_ZONE_MESSAGE, typeError: TIME_ZONE_MESSAGE, maxMessage: TIME_ZONE_MESSAGE, examples: ['America/New_York'] }).refine(
    (zone) => isValidTimeZone(zone),
    { message: TIME_ZONE_MESSAGE },
  ),
  sms_quiet_hours: quietHours,
  email_quiet_hours: quietHours,
  /** Pause all alerts: no rule of the user sends anything while true. */
  paused: z.boolean({ error: 'paused must be true or false' }),
});
export type SaveAlertDeliverySettingsRequest = z.input<typeof saveAlertDeliverySettingsRequest>;

export const alertChannel = z.enum(['sms', 'email'], { error: "channel must be 'sms' or 'email'" });
export type AlertChannel = z.infer<typeof alertChannel>;

/** Each channel's last successful delivery (ISO time), null when none yet. */
export const lastDeliveries = z.object({ sms: z.string().nullable(), email: z.string().nullable() });
export type LastDeliveries = z.infer<typeof lastDeliveries>;

/**
 * A channel's state for alerts (issue 15): `opted_out_at` when the user opted out (SMS STOP, the
 * e-mail unsubscribe from all), `problem` and `problem_at` when a permanent error stopped it (an
 * invalid number, a hard bounce); each null when not.
 */
export const alertChannelState = z.object({ opted_out_at: z.string().nullable(), problem: z.string().nullable(), problem_at: z.string().nullable() });
export type AlertChannelState = z.infer<typeof alertChannelState>;

/** The rule-card note of an auto-paused rule. */
export const ALERT_AUTO_PAUSED_MESSAGE = 'This rule was paused: it fired more than 15 times in 3 minutes. Save it to turn it on again.';
/** The settings card's notes of a channel that is off. */
export const SMS_OPTED_OUT_MESSAGE = 'SMS alerts are off: you replied STOP. Reply START to turn them on again.';
export const EMAIL_OPTED_OUT_MESSAGE = 'E-mail alerts are off: you unsubscribed from all alert e-mails.';
export const channelProblemMessage = (channel: AlertChannel, problem: string) => `${channel === 'sms' ? 'SMS' : 'E-mail'} alerts stopped: ${problem}`;

/**
 * GET api/get_alert_delivery_settings. `saved` false: nothing saved yet, the values are the defaults
 * (time zone America/New_York; the screen proposes the browser's zone instead).
 */
export const alertDeliverySettings = z.object({
  time_zone: z.string(),
  sms_quiet_hours: z.object({ enabled: z.boolean(), start: z.string(), end: z.string() }),
  email_quiet_hours: z.object({ enabled: z.boolean(), start: z.string(), end: z.string() }),
  paused: z.boolean(),
  saved: z.boolean(),
  last_delivery: lastDeliveries,
  /** Each channel's opt-out and problem (always answered by the server). */
  channels: z.object({ sms: alertChannelState, email: alertChannelState }).optional(),
});
export type AlertDeliverySettings = z.infer<typeof alertDeliverySettings>;

export const getAlertDeliverySettingsResponse = alertDeliverySettings;
export type GetAlertDeliverySettingsResponse = AlertDeliverySettings;

/** The answer of a save: 'Delivery settings saved successfully!' and the settings as stored. */
export const saveAlertDeliverySettingsResponse = z.object({ msg: z.string(), data: alertDeliverySettings });
export type SaveAlertDeliverySettingsResponse = z.infer<typeof saveAlertDeliverySettingsResponse>;

/**
 * POST api/resume_alert_email (issue 15): turns alert e-mails on again after an unsubscribe from all
 * or a permanent error (the address was fixed); answers the delivery settings. SMS come back by
 * replying START or verifying a number again.
 */
export const ALERT_EMAIL_RESUMED_MESSAGE = 'E-mail alerts are on again.';
export const resumeAlertEmailResponse = z.object({ msg: z.string(), data: alertDeliverySettings });
export type ResumeAlertEmailResponse = z.infer<typeof resumeAlertEmailResponse>;

/** POST api/send_test_alert: one test message through the channel's provider. */
export const sendTestAlertRequest = z.object({ channel: alertChannel });
export type SendTestAlertRequest = z.input<typeof sendTestAlertRequest>;

/**
 * The answer of a test send: `msg` ('Test SMS sent successfully to +1…' / 'Test e-mail sent
 * successfully to …'), `provider_answer` (the provider's words: the outbox file or Twilio's message
 * id, the SMTP server's reply), `delivered_at`, and each channel's last successful delivery now.
 */
export const sendTestAlertResponse = z.object({
  msg: z.string(),
  channel: alertChannel,
  provider_answer: z.string(),
  delivered_at: z.string(),
  last_delivery: lastDeliveries,
});
export type SendTestAlertResponse = z.infer<typeof sendTestAlertResponse>;

export const testAlertSentMessage = (channel: AlertChannel, to: string) =>
  channel === 'sms' ? `Test SMS sent successfully to ${to}.` : `Test e-mail sent successfully to ${to}.`;
export const testAlertFailedMessage = (channel: AlertChannel) => (channel === 'sms' ? 'Failed to send test SMS: ' : 'Failed to send test e-mail: ');

/** The wall-clock time 'HH:MM' (00:00–23:59) of `date` in the IANA zone `timeZone`. */
export function localTimeIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(date);
  const part = (type: 'hour' | 'minute') => parts.find((candidate) => candidate.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/** Whether a delivery on `channel` at `date` is held: alerts paused, or the channel's quiet hours in the user's zone. */
export function isDeliveryHeld(settings: Pick<AlertDeliverySettings, 'time_zone' | 'sms_quiet_hours' | 'email_quiet_hours' | 'paused'>, channel: AlertChannel, date: Date): boolean {
  if (settings.paused) return true;
  const hours = channel === 'sms' ? settings.sms_quiet_hours : settings.email_quiet_hours;
  return inQuietHours(hours, localTimeIn(date, settings.time_zone));
}
