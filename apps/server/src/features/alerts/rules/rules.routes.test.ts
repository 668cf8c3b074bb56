import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ALERT_CRYPTO_MAX_MESSAGE,
  ALERT_NEWS_KEYWORDS,
  ALERT_SCANS_MAX_MESSAGE,
  ALERT_SCANS_REQUIRED_MESSAGE,
  ALERT_SMS_NEEDS_PHONE_MESSAGE,
  ALERT_SYMBOLS_MAX_MESSAGE,
  ALERT_SYMBOLS_REQUIRED_MESSAGE,
  ALERT_TARGET_PRICE_MESSAGE,
  ALERT_THRESHOLD_MESSAGE,
  ALERT_TYPE_MESSAGE,
  ALERT_TYPES,
  DELIVERY_SETTINGS_SAVED_MESSAGE,
  OPTION_ALERT_TICKERS,
  QUIET_HOURS_SAME_MESSAGE,
  QUIET_HOURS_TIME_MESSAGE,
  TIME_ZONE_MESSAGE,
  alertSavedMessage,
  alertSymbolNotAllowedMessage,
  alertTargetMissingMessage,
  testAlertSentMessage,
  type AlertType,
  type SaveAlertPreferencesRequest,
} from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails, outboxSms, userPhones } from '../../../db/schema';
import { FAKE_CODE, FAKE_FROM, FAKE_INVALID_NUMBER, startFakeTwilio } from '../../../../test/fake-twilio';
import type { Mailer } from '../../../providers/mail';
import { MailError } from '../../../providers/mail';
import { createTestApp, uniqueEmail, createUser, login, userWithFavorites, type TestApp } from '../../../../test/helpers';

type Headers = { authorization: string };

const call = (t: TestApp, method: 'GET' | 'POST', url: string, headers?: Headers, payload?: unknown) =>
  t.app.inject({ method, url: `/api/${url}`, ...(headers ? { headers } : {}), ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
const save = (t: TestApp, headers: Headers | undefined, payload: unknown) => call(t, 'POST', 'save_alert_preferences', headers, payload);
const rule = (t: TestApp, headers: Headers | undefined, alertType: unknown) => call(t, 'POST', 'get_user_alert_rules', headers, { alert_type: alertType });
const settings = (t: TestApp, headers?: Headers) => call(t, 'GET', 'get_alert_delivery_settings', headers);
const saveSettings = (t: TestApp, headers: Headers | undefined, payload: unknown) => call(t, 'POST', 'save_alert_delivery_settings', headers, payload);
const testSend = (t: TestApp, headers: Headers | undefined, channel: unknown) => call(t, 'POST', 'send_test_alert', headers, { channel });

const FAVORITES = ['AAPL', 'MSFT', 'NVDA', 'TSLA'];
const NO_CHANNEL_STATE = { opted_out_at: null, problem: null, problem_at: null };
const DELIVERY = {
  time_zone: 'Europe/Berlin',
  sms_quiet_hours: { enabled: true, start: '22:30', end: '07:15' },
  email_quiet_hours: { enabled: true, start: '23:00', end: '06:00' },
  paused: true,
};

/** A valid rule of each type, sent in lower case where case matters. */
const VALID: Record<AlertType, SaveAlertPreferencesRequest> = {
  PERCENT_DROP: { alert_type: 'PERCENT_DROP', stock_symbols: ['aapl', 'MSFT'], threshold_value: 7.5, enable_sms: false, enable_email: true, is_active: true },
  CURRENT_PRICE: {
    alert_type: 'CURRENT_PRICE',
    stock_symbols: ['nvda'],
    threshold_value: null,
    targets: [{ symbol: 'NVDA', price: 150, direction: 'above' }],
    enable_sms: false,
    enable_email: true,
    is_active: false,
  },
  BITCOIN: {
    alert_type: 'BITCOIN',
    stock_symbols: ['btc', 'DOGE'],
    targets: [
      { symbol: 'BTC', price: 1_000_000, direction: 'below' },
      { symbol: 'doge', price: 0.0001, direction: 'above' },
    ],
    enable_sms: false,
    enable_email: true,
    is_active: true,
  },
  OPTION_ALERT: { alert_type: 'OPTION_ALERT', stock_symbols: OPTION_ALERT_TICKERS.slice(0, 10), enable_sms: false, enable_email: true, is_active: true },
  GENERAL_NEWS: { alert_type: 'GENERAL_NEWS', stock_symbols: ['economy monetary', 'Financial Markets'], enable_sms: false, enable_email: true, is_active: true },
  'NEWS+TRUMP+MAG7+ALPHA': { alert_type: 'NEWS+TRUMP+MAG7+ALPHA', stock_symbols: ['trump', 'NVDA'], enable_sms: false, enable_email: true, is_active: true },
  'NEWS+TRUMP+MAG7+GNEWS': { alert_type: 'NEWS+TRUMP+MAG7+GNEWS', stock_symbols: [...ALERT_NEWS_KEYWORDS], enable_sms: false, enable_email: false, is_active: true },
  LEVEL_SYSTEM: { alert_type: 'LEVEL_SYSTEM', stock_symbols: ['TSLA'], enable_sms: false, enable_email: true, is_active: true },
  STOCK_DROP_ALERTS: { alert_type: 'STOCK_DROP_ALERTS', stock_symbols: [], enable_sms: false, enable_email: true, is_active: true },
  ALLSTOCKS_PROGRESS_ALERT: { alert_type: 'ALLSTOCKS_PROGRESS_ALERT', stock_symbols: [], threshold_value: 50, enable_sms: false, enable_email: true, is_active: true },
  // SCAN: the id of a scan the test saved for the user (withScan).
  CUSTOM_SCAN: { alert_type: 'CUSTOM_SCAN', stock_symbols: ['SCAN'], enable_sms: false, enable_email: true, is_active: true },
};

/** What a get answers after saving VALID[type]. */
const STORED: Record<AlertType, { stock_symbols: string[]; threshold_value: number | null; targets: unknown[]; is_active: boolean; enable_email: boolean; enable_sms: boolean }> = {
  PERCENT_DROP: { stock_symbols: ['AAPL', 'MSFT'], threshold_value: 7.5, targets: [], is_active: true, enable_email: true, enable_sms: false },
  CURRENT_PRICE: { stock_symbols: ['NVDA'], threshold_value: null, targets: [{ symbol: 'NVDA', price: 150, direction: 'above' }], is_active: false, enable_email: true, enable_sms: false },
  BITCOIN: {
    stock_symbols: ['BTC', 'DOGE'],
    threshold_value: null,
    targets: [
      { symbol: 'BTC', price: 1_000_000, direction: 'below' },
      { symbol: 'DOGE', price: 0.0001, direction: 'above' },
    ],
    is_active: true,
    enable_email: true,
    enable_sms: false,
  },
  OPTION_ALERT: { stock_symbols: OPTION_ALERT_TICKERS.slice(0, 10), threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  GENERAL_NEWS: { stock_symbols: ['Economy Monetary', 'Financial Markets'], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  'NEWS+TRUMP+MAG7+ALPHA': { stock_symbols: ['TRUMP', 'NVDA'], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  'NEWS+TRUMP+MAG7+GNEWS': { stock_symbols: [...ALERT_NEWS_KEYWORDS], threshold_value: null, targets: [], is_active: true, enable_email: false, enable_sms: false },
  LEVEL_SYSTEM: { stock_symbols: ['TSLA'], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  STOCK_DROP_ALERTS: { stock_symbols: [], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  ALLSTOCKS_PROGRESS_ALERT: { stock_symbols: [], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
  CUSTOM_SCAN: { stock_symbols: ['SCAN'], threshold_value: null, targets: [], is_active: true, enable_email: true, enable_sms: false },
};

/** `value` with the placeholder scan id SCAN replaced by `scanId`. */
function withScan<T extends { stock_symbols?: string[] }>(value: T, scanId: number): T {
  return value.stock_symbols ? { ...value, stock_symbols: value.stock_symbols.map((symbol) => (symbol === 'SCAN' ? String(scanId) : symbol)) } : value;
}

/** Saves a scan for the user through POST api/scans; answers its id. */
async function saveScan(t: TestApp, headers: Headers, name: string): Promise<number> {
  const response = await call(t, 'POST', 'scans', headers, { name, universe: 'sp500', formula: 'rsi(14) < 30' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ scan: { id: number } }>().scan.id;
}

/** Verifies `number` for the user through the real calls, reading the code from the SMS outbox. */
async function verifyPhone(t: TestApp, headers: Headers, number: string): Promise<void> {
  expect((await call(t, 'POST', 'send_verification_code', headers, { phone_number: number })).statusCode).toBe(200);
  const dir = path.join(t.dataDir, 'sms-outbox');
  let code: string | undefined;
  for (const name of (await fs.readdir(dir)).sort().reverse()) {
    const text = await fs.readFile(path.join(dir, name), 'utf8');
    const match = /code is (\d{6})\./.exec(text);
    if (text.startsWith(`To: ${number}\n`) && match) {
      code = match[1];
      break;
    }
  }
  expect((await call(t, 'POST', 'verify_code', headers, { phone_number: number, verification_code: code })).statusCode).toBe(200);
}

describe('alert preferences and delivery settings (issue 14)', () => {
  let t: TestApp;
  let failMail = false;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        wrapMailer: (mailer: Mailer): Mailer => ({
          kind: mailer.kind,
          close: () => mailer.close(),
          send: async (message) => {
            if (failMail) throw new MailError('connection refused');
            return mailer.send(message);
          },
        }),
      },
    );
  });
  afterAll(async () => t.close());

  it('answers 401 without a token on every call', async () => {
    const responses = [
      await save(t, undefined, VALID.OPTION_ALERT),
      await rule(t, undefined, 'OPTION_ALERT'),
      await settings(t),
      await saveSettings(t, undefined, DELIVERY),
      await testSend(t, undefined, 'email'),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ msg: 'Auth token missing' });
    }
  });

  it('saves and reads back a rule of every type (upper-cased, news categories in their spelling)', async () => {
    const headers = await userWithFavorites(t, 'round-trip', FAVORITES);
    const scanId = await saveScan(t, headers, 'Oversold');
    for (const type of ALERT_TYPES) {
      expect((await rule(t, headers, type)).json()).toEqual({ data: null });
      const saved = await save(t, headers, withScan(VALID[type], scanId));
      expect({ type, status: saved.statusCode }).toEqual({ type, status: 200 });
      expect(saved.json()).toMatchObject({ msg: alertSavedMessage(type), data: { alert_type: type, ...withScan(STORED[type], scanId), unavailable_symbols: [] } });
      const read = await rule(t, headers, type);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({ data: { alert_type: type, ...withScan(STORED[type], scanId), unavailable_symbols: [], updated_at: expect.any(String), auto_paused_at: null } });
    }
    // A second save replaces the rule of that type, not the others.
    const again = await save(t, headers, { ...VALID.PERCENT_DROP, stock_symbols: ['NVDA'], threshold_value: 100, is_active: false });
    expect(again.statusCode).toBe(200);
    expect((await rule(t, headers, 'PERCENT_DROP')).json().data).toMatchObject({ stock_symbols: ['NVDA'], threshold_value: 100, is_active: false });
    expect((await rule(t, headers, 'LEVEL_SYSTEM')).json().data).toMatchObject(STORED.LEVEL_SYSTEM);
  });

  it('refuses every bad save with the spec message (400)', async () => {
    const headers = await userWithFavorites(t, 'validation', FAVORITES);
    const cases: Array<[unknown, string]> = [
      [{ alert_type: 'NOPE', stock_symbols: ['AAPL'] }, ALERT_TYPE_MESSAGE],
      [{ stock_symbols: ['AAPL'] }, ALERT_TYPE_MESSAGE],
      [{ ...VALID.OPTION_ALERT, stock_symbols: [] }, ALERT_SYMBOLS_REQUIRED_MESSAGE],
      [{ alert_type: 'LEVEL_SYSTEM' }, ALERT_SYMBOLS_REQUIRED_MESSAGE],
      [{ ...VALID.OPTION_ALERT, stock_symbols: OPTION_ALERT_TICKERS.slice(0, 11) }, ALERT_SYMBOLS_MAX_MESSAGE],
      [{ ...VALID.BITCOIN, stock_symbols: ['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE', 'A', 'B', 'C', 'D', 'E'] }, ALERT_CRYPTO_MAX_MESSAGE],
      [{ ...VALID.PERCENT_DROP, threshold_value: undefined }, ALERT_THRESHOLD_MESSAGE],
      [{ ...VALID.PERCENT_DROP, threshold_value: null }, ALERT_THRESHOLD_MESSAGE],
      [{ ...VALID.PERCENT_DROP, threshold_value: 0 }, ALERT_THRESHOLD_MESSAGE],
      [{ ...VALID.PERCENT_DROP, threshold_value: 100.01 }, ALERT_THRESHOLD_MESSAGE],
      [{ ...VALID.PERCENT_DROP, threshold_value: '5' }, ALERT_THRESHOLD_MESSAGE],
      [{ ...VALID.CURRENT_PRICE, targets: [] }, alertTargetMissingMessage('NVDA')],
      [{ ...VALID.CURRENT_PRICE, targets: [{ symbol: 'NVDA', price: 0, direction: 'above' }] }, ALERT_TARGET_PRICE_MESSAGE],
      [{ ...VALID.CURRENT_PRICE, targets: [{ symbol: 'NVDA', price: 1_000_000.01, direction: 'above' }] }, ALERT_TARGET_PRICE_MESSAGE],
      [{ ...VALID.CURRENT_PRICE, targets: [{ symbol: 'NVDA', price: 'x', direction: 'above' }] }, ALERT_TARGET_PRICE_MESSAGE],
      [{ ...VALID.CURRENT_PRICE, targets: [{ symbol: 'NVDA', price: 10, direction: 'sideways' }] }, "direction must be 'above' or 'below'"],
      [{ ...VALID.BITCOIN, stock_symbols: ['BTC'], targets: [{ symbol: 'BTC', price: -1, direction: 'above' }] }, ALERT_TARGET_PRICE_MESSAGE],
      // Symbols outside the type's choice: another user's favourites are not this user's.
      [{ ...VALID.PERCENT_DROP, stock_symbols: ['AMZN'] }, alertSymbolNotAllowedMessage('PERCENT_DROP', 'AMZN')],
      [{ ...VALID.LEVEL_SYSTEM, stock_symbols: ['GOOGL'] }, alertSymbolNotAllowedMessage('LEVEL_SYSTEM', 'GOOGL')],
      [{ ...VALID.CURRENT_PRICE, stock_symbols: ['META'], targets: [{ symbol: 'META', price: 1, direction: 'above' }] }, alertSymbolNotAllowedMessage('CURRENT_PRICE', 'META')],
      [{ ...VALID.BITCOIN, stock_symbols: ['BNB'], targets: [{ symbol: 'BNB', price: 1, direction: 'above' }] }, alertSymbolNotAllowedMessage('BITCOIN', 'BNB')],
      [{ ...VALID.OPTION_ALERT, stock_symbols: ['ZZZZ'] }, alertSymbolNotAllowedMessage('OPTION_ALERT', 'ZZZZ')],
      [{ ...VALID.GENERAL_NEWS, stock_symbols: ['Sports'] }, alertSymbolNotAllowedMessage('GENERAL_NEWS', 'Sports')],
      [{ ...VALID['NEWS+TRUMP+MAG7+ALPHA'], stock_symbols: ['BIDEN'] }, alertSymbolNotAllowedMessage('NEWS+TRUMP+MAG7+ALPHA', 'BIDEN')],
      [{ ...VALID['NEWS+TRUMP+MAG7+GNEWS'], stock_symbols: ['SPY'] }, alertSymbolNotAllowedMessage('NEWS+TRUMP+MAG7+GNEWS', 'SPY')],
      [{ ...VALID.OPTION_ALERT, stock_symbols: ['S\nPY'] }, 'Symbol must not contain line breaks or other control characters'],
      [{ ...VALID.OPTION_ALERT, stock_symbols: 'SPY' }, 'stock_symbols must be a list of symbols'],
      [{ ...VALID.OPTION_ALERT, enable_sms: 'yes' }, 'enable_sms must be true or false'],
      [{ ...VALID.OPTION_ALERT, is_active: 1 }, 'is_active must be true or false'],
      // SMS needs a verified phone number.
      [{ ...VALID.OPTION_ALERT, enable_sms: true }, ALERT_SMS_NEEDS_PHONE_MESSAGE],
      [{ ...VALID.STOCK_DROP_ALERTS, enable_sms: true }, ALERT_SMS_NEEDS_PHONE_MESSAGE],
    ];
    for (const [payload, msg] of cases) {
      const response = await save(t, headers, payload);
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({ payload, status: 400, body: { msg } });
    }
    for (const payload of [{}, { alert_type: 'nope' }, { alert_type: 5 }]) {
      const response = await call(t, 'POST', 'get_user_alert_rules', headers, payload);
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({ payload, status: 400, body: { msg: ALERT_TYPE_MESSAGE } });
    }
    // Nothing was stored by the refused saves.
    for (const type of ALERT_TYPES) expect((await rule(t, headers, type)).json()).toEqual({ data: null });
  });

  it('enables SMS on a rule only with a verified phone number', async () => {
    const headers = await userWithFavorites(t, 'sms-rule', FAVORITES);
    expect((await save(t, headers, { ...VALID.PERCENT_DROP, enable_sms: true })).json()).toEqual({ msg: ALERT_SMS_NEEDS_PHONE_MESSAGE });
    await verifyPhone(t, headers, '+12025550111');
    const saved = await save(t, headers, { ...VALID.PERCENT_DROP, enable_sms: true });
    expect(saved.statusCode).toBe(200);
    expect((await rule(t, headers, 'PERCENT_DROP')).json().data).toMatchObject({ enable_sms: true });
  });

  it('keeps a rule whose favourite was deleted, listing the symbol as unavailable', async () => {
    const headers = await userWithFavorites(t, 'deleted-fav', FAVORITES);
    expect((await save(t, headers, VALID.PERCENT_DROP)).statusCode).toBe(200);
    expect((await call(t, 'POST', 'delete_favorite_stocks', headers, { symbols: ['MSFT'] })).statusCode).toBe(200);
    expect((await rule(t, headers, 'PERCENT_DROP')).json().data).toMatchObject({ stock_symbols: ['AAPL', 'MSFT'], unavailable_symbols: ['MSFT'] });
  });

  it('Custom Scan takes only the user\'s own saved scans, ten at most, and lists a deleted one as unavailable', async () => {
    const mine = await userWithFavorites(t, 'scans-mine', FAVORITES);
    const other = await userWithFavorites(t, 'scans-other', FAVORITES);
    const ids: number[] = [];
    for (let n = 1; n <= 11; n += 1) ids.push(await saveScan(t, mine, `Scan ${n}`));
    const theirs = await saveScan(t, other, 'Theirs');
    const custom = (stock_symbols: unknown[]) => save(t, mine, { ...VALID.CUSTOM_SCAN, stock_symbols });
    const refusals: Array<[unknown[], string]> = [
      [[], ALERT_SCANS_REQUIRED_MESSAGE],
      [ids.map(String), ALERT_SCANS_MAX_MESSAGE],
      // Another user's scan, one that does not exist, and no id at all name the rule in the same words.
      [[String(ids[0]), String(theirs)], alertSymbolNotAllowedMessage('CUSTOM_SCAN', String(theirs))],
      [['999999'], 'Scan 999999 is not one of your saved scans: Custom Scan alerts watch your own scans only.'],
      [['oversold'], alertSymbolNotAllowedMessage('CUSTOM_SCAN', 'OVERSOLD')],
    ];
    for (const [symbols, msg] of refusals) {
      const response = await custom(symbols);
      expect({ symbols, status: response.statusCode, body: response.json() }).toEqual({ symbols, status: 400, body: { msg } });
    }
    expect((await rule(t, mine, 'CUSTOM_SCAN')).json()).toEqual({ data: null });

    // Ten of the user's own (an id written with a leading zero is the same scan).
    const ten = ids.slice(0, 10).map(String);
    const saved = await custom([...ten, `0${ten[0]}`]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ msg: 'Custom Scan alert preferences saved successfully!', data: { alert_type: 'CUSTOM_SCAN', stock_symbols: ten, unavailable_symbols: [] } });
    // The other user cannot watch them.
    expect((await save(t, other, { ...VALID.CUSTOM_SCAN, stock_symbols: [ten[1]] })).json()).toEqual({ msg: alertSymbolNotAllowedMessage('CUSTOM_SCAN', ten[1]!) });

    // A deleted scan stays on the rule, listed as unavailable, until a save leaves it out.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/scans/${ids[0]}`, headers: mine })).statusCode).toBe(200);
    expect((await rule(t, mine, 'CUSTOM_SCAN')).json().data).toMatchObject({ stock_symbols: ten, unavailable_symbols: [ten[0]] });
    expect((await custom(ten)).json()).toEqual({ msg: alertSymbolNotAllowedMessage('CUSTOM_SCAN', ten[0]!) });
    expect((await custom(ten.slice(1))).statusCode).toBe(200);
  });

  it('keeps rules, delivery settings and test sends strictly per user', async () => {
    const a = await userWithFavorites(t, 'iso-a', ['AAPL']);
    const b = await userWithFavorites(t, 'iso-b', ['MSFT']);
    expect((await save(t, a, { ...VALID.PERCENT_DROP, stock_symbols: ['AAPL'] })).statusCode).toBe(200);
    // B cannot read A's rule, nor use A's favourite, nor overwrite A's rule.
    expect((await rule(t, b, 'PERCENT_DROP')).json()).toEqual({ data: null });
    expect((await save(t, b, { ...VALID.PERCENT_DROP, stock_symbols: ['AAPL'] })).json()).toEqual({ msg: alertSymbolNotAllowedMessage('PERCENT_DROP', 'AAPL') });
    expect((await save(t, b, { ...VALID.PERCENT_DROP, stock_symbols: ['MSFT'], threshold_value: 20 })).statusCode).toBe(200);
    expect((await rule(t, a, 'PERCENT_DROP')).json().data).toMatchObject({ stock_symbols: ['AAPL'], threshold_value: 7.5 });
    expect((await rule(t, b, 'PERCENT_DROP')).json().data).toMatchObject({ stock_symbols: ['MSFT'], threshold_value: 20 });
    // Delivery settings.
    expect((await saveSettings(t, a, DELIVERY)).statusCode).toBe(200);
    expect((await settings(t, b)).json()).toMatchObject({ saved: false, paused: false, time_zone: 'America/New_York' });
    expect((await settings(t, a)).json()).toMatchObject({ saved: true, paused: true, time_zone: 'Europe/Berlin' });
    // A's verified phone does not let B send a test SMS or enable SMS; A's test send is not B's.
    await verifyPhone(t, a, '+12025550122');
    expect((await testSend(t, b, 'sms')).json()).toEqual({ msg: ALERT_SMS_NEEDS_PHONE_MESSAGE });
    expect((await save(t, b, { ...VALID.OPTION_ALERT, enable_sms: true })).json()).toEqual({ msg: ALERT_SMS_NEEDS_PHONE_MESSAGE });
    expect((await testSend(t, a, 'sms')).statusCode).toBe(200);
    expect((await settings(t, b)).json().last_delivery).toEqual({ sms: null, email: null });
    expect((await settings(t, a)).json().last_delivery).toEqual({ sms: expect.any(String), email: null });
  });

  it('answers the default delivery settings, saves and reads them back, and refuses bad ones', async () => {
    const headers = await userWithFavorites(t, 'delivery', []);
    expect((await settings(t, headers)).json()).toEqual({
      time_zone: 'America/New_York',
      sms_quiet_hours: { enabled: true, start: '21:00', end: '08:00' },
      email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' },
      paused: false,
      saved: false,
      last_delivery: { sms: null, email: null },
      channels: { sms: NO_CHANNEL_STATE, email: NO_CHANNEL_STATE },
    });
    const saved = await saveSettings(t, headers, DELIVERY);
    expect(saved.statusCode).toBe(200);
    const expected = { ...DELIVERY, saved: true, last_delivery: { sms: null, email: null }, channels: { sms: NO_CHANNEL_STATE, email: NO_CHANNEL_STATE } };
    expect(saved.json()).toEqual({ msg: DELIVERY_SETTINGS_SAVED_MESSAGE, data: expected });
    expect((await settings(t, headers)).json()).toEqual(expected);
    const cases: Array<[unknown, string]> = [
      [{ ...DELIVERY, time_zone: 'Mars/Olympus' }, TIME_ZONE_MESSAGE],
      [{ ...DELIVERY, time_zone: '' }, TIME_ZONE_MESSAGE],
      [{ ...DELIVERY, time_zone: undefined }, TIME_ZONE_MESSAGE],
      [{ ...DELIVERY, sms_quiet_hours: { enabled: true, start: '9:00', end: '08:00' } }, QUIET_HOURS_TIME_MESSAGE],
      [{ ...DELIVERY, email_quiet_hours: { enabled: false, start: '21:00', end: '24:00' } }, QUIET_HOURS_TIME_MESSAGE],
      [{ ...DELIVERY, sms_quiet_hours: { enabled: true, start: '08:00', end: '08:00' } }, QUIET_HOURS_SAME_MESSAGE],
      [{ ...DELIVERY, paused: 'no' }, 'paused must be true or false'],
    ];
    for (const [payload, msg] of cases) {
      const response = await saveSettings(t, headers, payload);
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({ payload, status: 400, body: { msg } });
    }
    expect((await settings(t, headers)).json()).toEqual(expected);
  });

  it('sends test alerts into the mail outbox and DATA_DIR/sms-outbox, recording each channel', async () => {
    const email = uniqueEmail('test-send');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    for (const channel of [undefined, 'push']) {
      expect((await testSend(t, headers, channel)).json()).toEqual({ msg: "channel must be 'sms' or 'email'" });
    }
    expect((await testSend(t, headers, 'sms')).json()).toEqual({ msg: ALERT_SMS_NEEDS_PHONE_MESSAGE });

    const mailed = await testSend(t, headers, 'email');
    expect(mailed.statusCode).toBe(200);
    expect(mailed.json()).toEqual({
      msg: testAlertSentMessage('email', email),
      channel: 'email',
      provider_answer: 'Stored in the e-mail outbox.',
      delivered_at: new Date(t.clock.nowMs()).toISOString(),
      last_delivery: { sms: null, email: new Date(t.clock.nowMs()).toISOString() },
    });
    const rows = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email));
    expect(rows.map((row) => row.subject)).toEqual(['Signalboard test alert']);

    const number = '+12025550133';
    await verifyPhone(t, headers, number);
    const texted = await testSend(t, headers, 'sms');
    expect(texted.statusCode).toBe(200);
    expect(texted.json()).toMatchObject({ msg: testAlertSentMessage('sms', number), channel: 'sms', provider_answer: expect.stringMatching(/^Stored in the SMS outbox \(message \d+\)\.$/) });
    const sms = await t.db.select().from(outboxSms).where(eq(outboxSms.toNumber, number));
    const message = sms.find((row) => row.kind === 'message');
    expect(message?.body).toMatch(/test alert/);
    expect(await fs.readFile(message!.filePath, 'utf8')).toMatch(new RegExp(`^To: \\${number}\\n[\\s\\S]*test alert`));
    expect(path.dirname(message!.filePath)).toBe(path.join(t.dataDir, 'sms-outbox'));
    expect((await settings(t, headers)).json().last_delivery).toEqual({ sms: expect.any(String), email: expect.any(String) });

    // A provider failure answers 502 with the channel's message and records nothing new.
    t.clock.advance(60_000);
    failMail = true;
    try {
      const failed = await testSend(t, headers, 'email');
      expect(failed.statusCode).toBe(502);
      expect(failed.json()).toEqual({ msg: 'Failed to send test e-mail: the e-mail service is unavailable right now. Please try again later.' });
    } finally {
      failMail = false;
    }
    expect((await settings(t, headers)).json().last_delivery.email).toBe(mailed.json().delivered_at);
  });
});

describe('test SMS through Twilio (the fake Twilio server)', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await createTestApp(fake.env(fake.url));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("answers Twilio's message id, and maps Twilio's refusal to a 400 with its words", async () => {
    const email = uniqueEmail('tw-test');
    const userId = await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    const number = '+12025550144';
    expect((await call(t, 'POST', 'send_verification_code', headers, { phone_number: number })).statusCode).toBe(200);
    expect((await call(t, 'POST', 'verify_code', headers, { phone_number: number, verification_code: FAKE_CODE })).statusCode).toBe(200);
    const sent = await testSend(t, headers, 'sms');
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ msg: testAlertSentMessage('sms', number), provider_answer: `Accepted by Twilio (message SM${'d'.repeat(32)}).` });
    const message = fake.requests.find((request) => request.path.endsWith('/Messages.json'));
    expect(message?.form).toMatchObject({ To: number, From: FAKE_FROM });
    expect(message?.form.Body).toMatch(/test alert/);

    // A number Twilio no longer accepts (stored as verified earlier).
    await t.db.update(userPhones).set({ phoneNumber: FAKE_INVALID_NUMBER }).where(eq(userPhones.userId, userId));
    const refused = await testSend(t, headers, 'sms');
    expect([refused.statusCode, refused.json()]).toEqual([400, { msg: 'Failed to send test SMS: This phone number cannot receive SMS. Please check the number.' }]);
    expect((await settings(t, headers)).json().last_delivery.sms).toBe(sent.json().delivered_at);
  });
});
