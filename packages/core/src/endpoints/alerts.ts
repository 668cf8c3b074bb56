/** The Alert System: the phone number, rules and delivery settings, history, and alert delivery's open routes (Twilio callbacks, the e-mail unsubscribe link), each with its own check. */
import { z } from 'zod';
import { alertHistoryQuery, createPushSubscriptionRequest, pushKeyResponse, telegramConnectResponse, telegramStatusResponse, telegramUpdate, createWebhookRequest, listWebhooksResponse, msgBody, testWebhookResponse, updateWebhookRequest, webhookIdParams, webhookWithSecretResponse, getAlertDeliverySettingsResponse, getAlertHistoryResponse, getUserAlertRulesRequest, getUserAlertRulesResponse, getUserPhoneNumberResponse, resumeAlertEmailResponse, saveAlertDeliverySettingsRequest, saveAlertDeliverySettingsResponse, saveAlertPreferencesRequest, saveAlertPreferencesResponse, sendTestAlertRequest, sendTestAlertResponse, sendVerificationCodeRequest, sendVerificationCodeResponse, twilioInboundMessage, twilioStatusCallback, unsubscribeOneClickBody, unsubscribeQuery, verifyCodeRequest, verifyCodeResponse } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const alertsEndpoints = endpointGroup({
  sendVerificationCode: defineEndpoint({
    operationId: 'sendVerificationCode',
    method: 'post',
    path: '/api/send_verification_code',
    summary:
      'Send a 6-digit verification code (valid 10 minutes) by SMS to this E.164 number; at most 3 codes per number per 10 minutes, 10 per user, VERIFICATION_MAX_PER_ADDRESS_PER_DAY per client address and VERIFICATION_MAX_PER_DAY for the installation per 24 hours, and within the daily SMS budget (429 beyond); only to the calling codes of SMS_ALLOWED_COUNTRIES (400 otherwise)',
    body: sendVerificationCodeRequest,
    response: sendVerificationCodeResponse,
    errors: [429, 502],
  }),
  verifyCode: defineEndpoint({
    operationId: 'verifyCode',
    method: 'post',
    path: '/api/verify_code',
    summary: "Check the code sent to this number (at most 5 checks per code); when it is right the number becomes the signed-in user's phone for SMS alerts",
    body: verifyCodeRequest,
    response: verifyCodeResponse,
    errors: [429, 502],
  }),
  getUserPhoneNumber: defineEndpoint({ operationId: 'getUserPhoneNumber', method: 'get', path: '/api/get_user_phone_number', summary: "The signed-in user's verified phone number and whether SMS is on, or {} when none is on file", response: getUserPhoneNumberResponse }),
  saveAlertPreferences: defineEndpoint({
    operationId: 'saveAlertPreferences',
    method: 'post',
    path: '/api/save_alert_preferences',
    summary: "Save the signed-in user's rule of one alert type (one per type): at most 10 symbols from the type's choice (favourites, the six coins, the option tickers, the news categories or keywords; none for the two drop types), the Percent Drop threshold 1-100, a target per symbol for Current Price and Cryptocurrency (0 < price <= 1,000,000); SMS needs a verified phone number",
    body: saveAlertPreferencesRequest,
    response: saveAlertPreferencesResponse,
  }),
  getUserAlertRules: defineEndpoint({ operationId: 'getUserAlertRules', method: 'post', path: '/api/get_user_alert_rules', summary: "The signed-in user's rule of this alert type, or { data: null } when there is none", body: getUserAlertRulesRequest, response: getUserAlertRulesResponse }),
  getAlertDeliverySettings: defineEndpoint({ operationId: 'getAlertDeliverySettings', method: 'get', path: '/api/get_alert_delivery_settings', summary: "The signed-in user's alert delivery settings (time zone, quiet hours per channel, pause) and each channel's last successful delivery; the defaults with saved false when none were saved", response: getAlertDeliverySettingsResponse }),
  resumeAlertEmail: defineEndpoint({ operationId: 'resumeAlertEmail', method: 'post', path: '/api/resume_alert_email', summary: 'Turn alert e-mails on again after an unsubscribe from all or a permanent error; answers the delivery settings', response: resumeAlertEmailResponse }),
  saveAlertDeliverySettings: defineEndpoint({ operationId: 'saveAlertDeliverySettings', method: 'post', path: '/api/save_alert_delivery_settings', summary: "Save the signed-in user's alert delivery settings (IANA time zone, SMS and e-mail quiet hours as HH:MM, pause all alerts)", body: saveAlertDeliverySettingsRequest, response: saveAlertDeliverySettingsResponse }),
  sendTestAlert: defineEndpoint({
    operationId: 'sendTestAlert',
    method: 'post',
    path: '/api/send_test_alert',
    summary:
      "Send a test alert through the SMS provider (to the verified number) or the mail provider (to the account's address), answering the provider's answer and each channel's last successful delivery; at most TEST_ALERT_MAX_PER_HOUR per channel per hour and, for SMS, within the daily SMS budget (429 beyond)",
    body: sendTestAlertRequest,
    response: sendTestAlertResponse,
    errors: [429, 502],
  }),
  getAlertHistory: defineEndpoint({
    operationId: 'getAlertHistory',
    method: 'post',
    path: '/api/get_alert_history',
    summary:
      "The signed-in user's fired alerts, newest first: the rule as it was, the data that fired it (price, source, as-of), each channel's delivery with its status, reason and status steps; filters alert_type, symbol (contains), from/to (days, inclusive, in time_zone, default America/New_York); page (from 1) and limit (1-200, default 50); `next` is the next page when there is one",
    body: alertHistoryQuery,
    response: getAlertHistoryResponse,
  }),
  downloadAlertHistoryCsv: defineEndpoint({
    operationId: 'downloadAlertHistoryCsv',
    method: 'get',
    path: '/api/alert_history.csv',
    summary:
      "The signed-in user's alert history as CSV (text/csv, attachment alert-history-YYYY-MM-DD.csv): the same filters as get_alert_history (page and limit ignored; at most 10,000 alerts), one line per delivery (an alert without deliveries: one line, channel columns empty); columns fired_at, alert_type, type_name, symbol, message, price, source, as_of, channel, status, status_text, reason, reason_text, attempts, possibly_duplicate, steps; a cell starting with = + - @ gets a leading apostrophe",
    query: alertHistoryQuery,
    response: z.string(),
    responseType: 'csv',
  }),
  listWebhooks: defineEndpoint({ operationId: 'listWebhooks', method: 'get', path: '/api/alert_channels/webhooks', summary: "The signed-in user's webhook endpoints (never their secrets): state, last success, last answer", response: listWebhooksResponse }),
  createWebhook: defineEndpoint({
    operationId: 'createWebhook',
    method: 'post',
    path: '/api/alert_channels/webhooks',
    summary:
      "Add an alert endpoint (at most 5): kind webhook (signed JSON), discord (a channel webhook URL; an embed per alert) or ntfy (a server URL, a topic, an optional access token; a notification per alert), a name, an https URL (http only with WEBHOOK_ALLOW_HTTP=true; never a loopback, link-local, private or multicast address after DNS resolution unless WEBHOOK_ALLOW_HOSTS lists the host) and the alert types it gets; a webhook's answer carries its signing secret (whsec_…), once",
    body: createWebhookRequest,
    response: webhookWithSecretResponse,
  }),
  updateWebhook: defineEndpoint({ operationId: 'updateWebhook', method: 'put', path: '/api/alert_channels/webhooks/{id}', summary: 'Change a webhook endpoint\'s name, URL (checked as when added), alert types, or turn it off and on (on again clears a failure)', params: webhookIdParams, body: updateWebhookRequest, response: webhookWithSecretResponse, errors: [404] }),
  deleteWebhook: defineEndpoint({ operationId: 'deleteWebhook', method: 'delete', path: '/api/alert_channels/webhooks/{id}', summary: 'Delete a webhook endpoint; its queued deliveries are not sent', params: webhookIdParams, response: msgBody, errors: [404] }),
  rotateWebhookSecret: defineEndpoint({ operationId: 'rotateWebhookSecret', method: 'post', path: '/api/alert_channels/webhooks/{id}/rotate_secret', summary: 'Replace a webhook endpoint\'s signing secret; answers the new one once (400 for Discord and ntfy endpoints, which have none)', params: webhookIdParams, response: webhookWithSecretResponse, errors: [404] }),
  testWebhook: defineEndpoint({
    operationId: 'testWebhook',
    method: 'post',
    path: '/api/alert_channels/webhooks/{id}/test',
    summary: 'Send a test delivery (type alert.test; a webhook\'s signed) to an endpoint now and answer the request (a Discord token and an ntfy access token masked) and the answer (5 s timeout, redirects not followed); at most 3 per endpoint per hour (429 beyond)',
    params: webhookIdParams,
    response: testWebhookResponse,
    errors: [404, 429],
  }),
  getTelegramStatus: defineEndpoint({ operationId: 'getTelegramStatus', method: 'get', path: '/api/alert_channels/telegram', summary: "Whether the installation has a Telegram bot (TELEGRAM_BOT_TOKEN) and its @username; the user's connected chats are endpoints of kind telegram in list_webhooks", response: telegramStatusResponse }),
  connectTelegram: defineEndpoint({
    operationId: 'connectTelegram',
    method: 'post',
    path: '/api/alert_channels/telegram/connect',
    summary: 'A single-use link https://t.me/<bot>?start=<code>, valid 10 minutes: pressing Start in that chat connects it (a chat of kind telegram, every alert type); /stop in the chat disconnects it. 400 when the installation has no bot; at most 3 chats',
    response: telegramConnectResponse,
    errors: [503],
  }),
  receiveTelegramUpdate: defineEndpoint({ operationId: 'receiveTelegramUpdate', method: 'post', path: '/api/telegram/webhook', summary: "Telegram's update webhook (TELEGRAM_UPDATES=webhook: set at PUBLIC_URL on start): the X-Telegram-Bot-Api-Secret-Token header must match (403 otherwise; 404 when updates are polled instead); /start <code> binds the chat, /stop unbinds it", open: true, body: telegramUpdate, response: z.object({ ok: z.boolean() }), errors: [403, 404] }),
  getPushKey: defineEndpoint({ operationId: 'getPushKey', method: 'get', path: '/api/alert_channels/push/key', summary: "The installation's VAPID public key (base64url), which a browser subscribes with", response: pushKeyResponse }),
  addPushDevice: defineEndpoint({
    operationId: 'addPushDevice',
    method: 'post',
    path: '/api/alert_channels/push',
    summary: "Turn on alerts as notifications on this browser: its push subscription (endpoint, keys.p256dh, keys.auth; the endpoint's URL is checked by the same rules as a webhook's) and a name; the same subscription again updates its device; at most 10 devices. A 404/410 from the push service later removes the device",
    body: createPushSubscriptionRequest,
    response: webhookWithSecretResponse,
  }),
  receiveTwilioStatus: defineEndpoint({ operationId: 'receiveTwilioStatus', method: 'post', path: '/api/twilio/status', summary: "Twilio's status callback (X-Twilio-Signature over PUBLIC_URL + path; 403 when it does not match, 404 without TWILIO_AUTH_TOKEN): sent → delivered | failed", open: true, body: twilioStatusCallback, bodyType: 'form', response: z.string(), responseType: 'xml', errors: [403, 404] }),
  receiveTwilioInbound: defineEndpoint({ operationId: 'receiveTwilioInbound', method: 'post', path: '/api/twilio/inbound', summary: "Twilio's inbound SMS webhook (signed as above): STOP opts out of SMS alerts, START back in, HELP answers how; answers TwiML", open: true, body: twilioInboundMessage, bodyType: 'form', response: z.string(), responseType: 'xml', errors: [403, 404] }),
  showUnsubscribePage: defineEndpoint({ operationId: 'showUnsubscribePage', method: 'get', path: '/api/alerts/unsubscribe', summary: 'The e-mail unsubscribe link (a signed token, 30 days): a page with a confirm button, no sign-in', open: true, query: unsubscribeQuery, response: z.string(), responseType: 'html' }),
  unsubscribeOneClick: defineEndpoint({ operationId: 'unsubscribeOneClick', method: 'post', path: '/api/alerts/unsubscribe', summary: 'One-click unsubscribe (RFC 8058): from one rule\'s e-mails or from all alert e-mails, as the token says', open: true, query: unsubscribeQuery, body: unsubscribeOneClickBody, bodyType: 'form', response: z.string(), responseType: 'html' }),
});
