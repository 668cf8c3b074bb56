/**
 * The one place every SMS of the installation passes (issue 24: paid sends must be bounded), around
 * whichever provider sends it (outbox or Twilio): verification codes, alert deliveries and test
 * sends alike.
 *
 * - SMS_ALLOWED_COUNTRIES: a number whose calling code is not listed is refused before anything is
 *   counted or sent (`1` is the US and Canada only: see isSmsCountryAllowed).
 * - SMS_DAILY_LIMIT: every SMS counts against the installation's budget of the UTC day, in the
 *   database (usage_counters), so all API and worker processes share it with or without Redis. A
 *   send the provider refused (nothing went out) is given back; one that failed on the way
 *   (`unavailable`) stays counted, as it may have been sent. When the budget is spent the send is
 *   refused (SmsError 'budget_spent') and one warning is logged per day for the whole installation.
 */
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createUsageCounters, utcDayStart } from '../../lib/usage-counter';
import { SmsError, type Sms, type SmsMessage } from './types';

const DAY_MS = 86_400_000;
export const SMS_BUDGET_KEY = 'sms-budget';
const SMS_BUDGET_WARNED_KEY = 'sms-budget-warned';

export const SMS_BUDGET_SPENT_MESSAGE = 'The SMS budget of this installation for today is spent; please try again tomorrow (after 00:00 UTC).';

export const countryNotAllowedMessage = (codes: readonly string[]) =>
  `SMS is not available for this country. Allowed calling codes: ${codes.map((code) => (code === '1' ? '+1 (the US and Canada)' : `+${code}`)).join(', ')}.`;

/**
 * Calling code 1 is the North American Numbering Plan: the US and Canada (US territories included),
 * but also some twenty other countries by area code (the Caribbean, Bermuda) and the premium-rate
 * services 900 and 976, the classic targets of SMS toll fraud. `1` in SMS_ALLOWED_COUNTRIES means
 * the US and Canada, the product's markets, so these area codes are refused.
 */
const NANP_OUTSIDE_US_AND_CANADA: ReadonlySet<string> = new Set([
  '242', '246', '264', '268', '284', '345', '441', '473', '649', '658', '664', '721', '758', '767', '784', '809', '829',
  '849', '868', '869', '876', '900', '976',
]);

/** Whether `to` (E.164) is in the allowed calling codes (codes are prefix-free, so a prefix match is exact). */
export function isSmsCountryAllowed(to: string, allowedCountries: readonly string[]): boolean {
  const code = allowedCountries.find((candidate) => to.startsWith(`+${candidate}`));
  if (code === undefined) return false;
  return code !== '1' || !NANP_OUTSIDE_US_AND_CANADA.has(to.slice(2, 5));
}

/** The SMS kinds a provider answers when it refused the send: nothing went out, so nothing is spent. */
const NOT_SENT: ReadonlySet<SmsError['kind']> = new Set(['invalid_number', 'blocked', 'rate_limited', 'max_attempts']);

export interface SmsGuardOptions {
  db: Database;
  clock: Clock;
  /** SMS_DAILY_LIMIT: SMS per UTC day for the whole installation (0: none). */
  dailyLimit: number;
  /** SMS_ALLOWED_COUNTRIES: calling codes without '+', e.g. ['1', '44']. */
  allowedCountries: readonly string[];
  log: { warn(message: string): void };
}

export interface GuardedSms extends Sms {
  /** The budget of today for readiness: `degraded` with a msg while it is spent. */
  budgetState(): Promise<{ state?: 'degraded'; msg?: string; sent_today: number; daily_limit: number }>;
}

export function guardSms(inner: Sms, options: SmsGuardOptions): GuardedSms {
  const { clock, dailyLimit, allowedCountries, log } = options;
  const counters = createUsageCounters(options.db);

  function checkCountry(to: string): void {
    if (!isSmsCountryAllowed(to, allowedCountries)) throw new SmsError('country_not_allowed', countryNotAllowedMessage(allowedCountries));
  }

  /** Counts one SMS against today's budget; answers the window counted in, or throws budget_spent. */
  async function spend(): Promise<Date> {
    const nowMs = clock.nowMs();
    const day = utcDayStart(nowMs);
    const window = { start: day, overAtOrBefore: new Date(day.getTime() - 1) };
    const verdict = await counters.hit(SMS_BUDGET_KEY, dailyLimit, window);
    if (verdict.allowed) return verdict.windowStart;
    // The first refusal of the day (in any process) logs the warning; later ones stay quiet.
    if ((await counters.hit(SMS_BUDGET_WARNED_KEY, 1, window)).allowed) {
      log.warn(`SMS stopped: the daily SMS budget (SMS_DAILY_LIMIT=${dailyLimit}) of ${day.toISOString().slice(0, 10)} UTC is spent; SMS resumes at 00:00 UTC`);
    }
    throw new SmsError('budget_spent', SMS_BUDGET_SPENT_MESSAGE, undefined, Math.max(1, Math.ceil((day.getTime() + DAY_MS - nowMs) / 1000)));
  }

  async function guarded<T>(to: string, send: () => Promise<T>): Promise<T> {
    checkCountry(to);
    const window = await spend();
    try {
      return await send();
    } catch (error) {
      if (error instanceof SmsError && NOT_SENT.has(error.kind)) await counters.giveBack(SMS_BUDGET_KEY, window).catch(() => undefined);
      throw error;
    }
  }

  return {
    kind: inner.kind,
    sendVerification: (to: string) => guarded(to, () => inner.sendVerification(to)),
    checkVerification: (to: string, code: string) => inner.checkVerification(to, code),
    send: (message: SmsMessage) => guarded(message.to, () => inner.send(message)),
    async budgetState() {
      const row = await counters.read(SMS_BUDGET_KEY);
      const day = utcDayStart(clock.nowMs());
      const sent = row && row.windowStart.getTime() === day.getTime() ? row.count : 0;
      const details = { sent_today: sent, daily_limit: dailyLimit };
      if (sent < dailyLimit) return details;
      return { state: 'degraded' as const, msg: `the daily SMS budget (SMS_DAILY_LIMIT=${dailyLimit}) is spent: no SMS until 00:00 UTC`, ...details };
    },
  };
}
