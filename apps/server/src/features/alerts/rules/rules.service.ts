/**
 * Alert preferences and delivery settings (issue 14; docs/rules/alerts.md "The rule as stored and
 * exchanged", "Delivery"). Every check of the contract runs again here with the user's own data:
 * the favourites types take only the user's favourites, Custom Scan only the user's saved scans, SMS
 * needs the user's verified number.
 */
import {
  ALERT_DEFAULT_TIME_ZONE,
  ALERT_SMS_NEEDS_PHONE_MESSAGE,
  ALERT_TYPE_SYMBOL_SOURCE,
  EMAIL_QUIET_HOURS_DEFAULT,
  SMS_QUIET_HOURS_DEFAULT,
  alertFixedSymbols,
  alertPreferencesProblem,
  alertTypeHasSymbols,
  alertTypeHasTargets,
  alertTypeHasThreshold,
  normalizeAlertSymbol,
  testAlertFailedMessage,
  testAlertSentMessage,
  type AlertChannel,
  type AlertDeliverySettings,
  type AlertRule,
  type AlertType,
  type LastDeliveries,
  type SendTestAlertResponse,
} from '@signalboard/core';
import type { z } from 'zod';
import type { saveAlertDeliverySettingsRequest, saveAlertPreferencesRequest } from '@signalboard/core';
import type { Clock } from '../../../lib/clock';
import { HttpError } from '../../../lib/errors';
import type { Mailer } from '../../../providers/mail';
import { SmsError, type Sms } from '../../../providers/sms';
import type { AlertDeliverySettingsRow, AlertRuleRow, AlertRulesRepo } from './rules.repo';

export type SavePreferences = z.output<typeof saveAlertPreferencesRequest>;
export type SaveDeliverySettings = z.output<typeof saveAlertDeliverySettingsRequest>;

export interface AlertRulesServiceDeps {
  repo: AlertRulesRepo;
  sms: Sms;
  mailer: Mailer;
  clock: Clock;
  log: { warn(object: unknown, message: string): void };
  /** Test sends per user and channel (TEST_ALERT_MAX_PER_HOUR per hour), counted in the database. */
  testSends: { max: number; hit(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function createAlertRulesService({ repo, sms, mailer, clock, log, testSends }: AlertRulesServiceDeps) {
  /** The type's choice for this user: favourites, saved scans (their ids), a fixed list, or none. */
  async function choiceOf(userId: number, type: AlertType): Promise<readonly string[] | null> {
    const source = ALERT_TYPE_SYMBOL_SOURCE[type];
    if (source === 'favorites') return repo.favoriteSymbols(userId);
    if (source === 'saved_scans') return repo.savedScanIds(userId);
    return alertFixedSymbols(source);
  }

  function ruleOf(row: AlertRuleRow, choice: readonly string[] | null): AlertRule {
    const type = row.alertType as AlertType;
    const allowed = choice ? new Set(choice.map((symbol) => normalizeAlertSymbol(type, symbol))) : null;
    return {
      alert_type: type,
      stock_symbols: row.symbols,
      threshold_value: row.thresholdValue,
      is_active: row.isActive,
      enable_email: row.enableEmail,
      enable_sms: row.enableSms,
      targets: row.targets,
      unavailable_symbols: allowed ? row.symbols.filter((symbol) => !allowed.has(symbol)) : [],
      updated_at: row.updatedAt.toISOString(),
      auto_paused_at: iso(row.autoPausedAt),
    };
  }

  async function lastDeliveries(userId: number): Promise<LastDeliveries> {
    const last = await repo.lastDeliveries(userId);
    return { sms: iso(last.sms), email: iso(last.email) };
  }

  async function channelsOf(userId: number): Promise<NonNullable<AlertDeliverySettings['channels']>> {
    const rows = await repo.channelStatus(userId);
    const state = (channel: AlertChannel) => {
      const row = rows.find((candidate) => candidate.channel === channel);
      return { opted_out_at: iso(row?.optedOutAt ?? null), problem: row?.problem ?? null, problem_at: iso(row?.problemAt ?? null) };
    };
    return { sms: state('sms'), email: state('email') };
  }

  function settingsOf(row: AlertDeliverySettingsRow | undefined, last: LastDeliveries, channels: AlertDeliverySettings['channels']): AlertDeliverySettings {
    if (!row) {
      return {
        time_zone: ALERT_DEFAULT_TIME_ZONE,
        sms_quiet_hours: { ...SMS_QUIET_HOURS_DEFAULT },
        email_quiet_hours: { ...EMAIL_QUIET_HOURS_DEFAULT },
        paused: false,
        saved: false,
        last_delivery: last,
        channels,
      };
    }
    return {
      time_zone: row.timeZone,
      sms_quiet_hours: { enabled: row.smsQuietEnabled, start: row.smsQuietStart, end: row.smsQuietEnd },
      email_quiet_hours: { enabled: row.emailQuietEnabled, start: row.emailQuietStart, end: row.emailQuietEnd },
      paused: row.paused,
      saved: true,
      last_delivery: last,
      channels,
    };
  }

  /** A provider failure of a test send as an answer: the provider's words after 'Failed to send test …: '. */
  function testFailure(channel: AlertChannel, error: unknown): HttpError {
    const prefix = testAlertFailedMessage(channel);
    if (error instanceof SmsError) {
      switch (error.kind) {
        case 'invalid_number':
        case 'blocked':
        case 'country_not_allowed':
          return new HttpError(400, prefix + error.message);
        case 'rate_limited':
        case 'max_attempts':
          return new HttpError(429, prefix + error.message);
        case 'budget_spent':
          return new HttpError(429, prefix + error.message, { headers: { 'retry-after': String(error.retryAfterSeconds ?? 3600) } });
        default:
          log.warn({ err: error }, 'SMS provider failed on a test send');
          return new HttpError(502, `${prefix}the SMS service is unavailable right now. Please try again later.`);
      }
    }
    log.warn({ err: error }, 'mail provider failed on a test send');
    return new HttpError(502, `${prefix}the e-mail service is unavailable right now. Please try again later.`);
  }

  return {
    /** Saves the user's rule of `input.alert_type` (400 with the screen's message on a bad one). */
    async savePreferences(userId: number, input: SavePreferences): Promise<AlertRule> {
      const type = input.alert_type;
      const choice = await choiceOf(userId, type);
      const problem = alertPreferencesProblem(input, choice);
      if (problem) throw new HttpError(400, problem);
      if (input.enable_sms && !(await repo.verifiedPhone(userId))) throw new HttpError(400, ALERT_SMS_NEEDS_PHONE_MESSAGE);
      const symbols = alertTypeHasSymbols(type) ? [...new Set(input.stock_symbols.map((symbol) => normalizeAlertSymbol(type, symbol)))] : [];
      const targets = alertTypeHasTargets(type)
        ? symbols.map((symbol) => {
            const target = (input.targets ?? []).find((candidate) => normalizeAlertSymbol(type, candidate.symbol) === symbol)!;
            return { symbol, price: target.price, direction: target.direction };
          })
        : [];
      const now = new Date(clock.nowMs());
      const row = await repo.saveRule(
        {
          userId,
          alertType: type,
          symbols,
          thresholdValue: alertTypeHasThreshold(type) ? (input.threshold_value ?? null) : null,
          targets,
          enableSms: input.enable_sms,
          enableEmail: input.enable_email,
          isActive: input.is_active,
          // A save is the user's answer to an auto-pause: the rule runs again as saved.
          autoPausedAt: null,
          updatedAt: now,
        },
        now,
      );
      return ruleOf(row, choice);
    },

    /** The user's rule of that type, or null. */
    async rule(userId: number, type: AlertType): Promise<AlertRule | null> {
      const row = await repo.rule(userId, type);
      if (!row) return null;
      return ruleOf(row, await choiceOf(userId, type));
    },

    async deliverySettings(userId: number): Promise<AlertDeliverySettings> {
      return settingsOf(await repo.deliverySettings(userId), await lastDeliveries(userId), await channelsOf(userId));
    },

    /** Alert e-mails on again (after an unsubscribe from all, or a fixed address); answers the settings. */
    async resumeEmail(userId: number): Promise<AlertDeliverySettings> {
      await repo.resumeEmail(userId, new Date(clock.nowMs()));
      return settingsOf(await repo.deliverySettings(userId), await lastDeliveries(userId), await channelsOf(userId));
    },

    async saveDeliverySettings(userId: number, input: SaveDeliverySettings): Promise<AlertDeliverySettings> {
      const row = await repo.saveDeliverySettings({
        userId,
        timeZone: input.time_zone,
        smsQuietEnabled: input.sms_quiet_hours.enabled,
        smsQuietStart: input.sms_quiet_hours.start,
        smsQuietEnd: input.sms_quiet_hours.end,
        emailQuietEnabled: input.email_quiet_hours.enabled,
        emailQuietStart: input.email_quiet_hours.start,
        emailQuietEnd: input.email_quiet_hours.end,
        paused: input.paused,
        updatedAt: new Date(clock.nowMs()),
      });
      return settingsOf(row, await lastDeliveries(userId), await channelsOf(userId));
    },

    /**
     * Sends one test message through the channel's provider (regardless of quiet hours and pause: the
     * user asked for it) and records the channel's last successful delivery. At most `testSends.max`
     * per user and channel per hour (429 with retry-after beyond), so a verified premium-rate number
     * cannot be billed in a loop.
     */
    async sendTest(userId: number, email: string, channel: AlertChannel): Promise<SendTestAlertResponse> {
      let to: string;
      let providerAnswer: string;
      const phone = channel === 'sms' ? await repo.verifiedPhone(userId) : null;
      if (channel === 'sms' && !phone) throw new HttpError(400, ALERT_SMS_NEEDS_PHONE_MESSAGE);
      const limit = await testSends.hit(`${channel}:${userId}`);
      if (!limit.allowed) {
        const wait = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
        throw new HttpError(
          429,
          `You have sent ${testSends.max} test ${channel === 'sms' ? 'SMS' : 'e-mails'} in the last hour, the most allowed. Please try again in ${wait} minute${wait === 1 ? '' : 's'}.`,
          { headers: { 'retry-after': String(limit.retryAfterSeconds) } },
        );
      }
      if (channel === 'sms' && phone) {
        to = phone;
        try {
          const { id } = await sms.send({ to, body: 'Signalboard test alert: SMS alerts reach this phone. Reply STOP to opt out.' });
          providerAnswer = sms.kind === 'outbox' ? `Stored in the SMS outbox (message ${id}).` : `Accepted by Twilio (message ${id}).`;
        } catch (error) {
          throw testFailure(channel, error);
        }
      } else {
        to = email;
        try {
          await mailer.send({
            to,
            subject: 'Signalboard test alert',
            text: 'This is a test alert from Signalboard: e-mail alerts reach this address.\n',
          });
          providerAnswer = mailer.kind === 'outbox' ? 'Stored in the e-mail outbox.' : 'Accepted by the SMTP server.';
        } catch (error) {
          throw testFailure(channel, error);
        }
      }
      const at = new Date(clock.nowMs());
      await repo.recordDelivery(userId, channel, at, providerAnswer);
      return { msg: testAlertSentMessage(channel, to), channel, provider_answer: providerAnswer, delivered_at: at.toISOString(), last_delivery: await lastDeliveries(userId) };
    },
  };
}

export type AlertRulesService = ReturnType<typeof createAlertRulesService>;
