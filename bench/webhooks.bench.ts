// Webhook delivery (issue 27; docs/rules/alerts.md §4.8 "Webhooks"), one worker process:
//   1. 1,000 alerts, one for each of 1,000 users with an endpoint of their own (all on one local
//      receiver), written as the evaluator writes them; timed from the commit of the last alert to the
//      receiver's 1,000th request, with the delivery worker running (both lanes). Budget < 10 s, and
//      never more than 50 requests in flight (counted by the receiver).
//   2. No head-of-line blocking: while 50 deliveries hang on an endpoint that never answers (until the
//      5 s timeout), an SMS alert is handed to the SMS provider; budget ≤ 1 s from its commit.
// PostgreSQL: DATABASE_URL when set, else the embedded server in a temporary directory.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config';
import { alertRules, alertWebhooks, userPhones } from '../apps/server/src/db/schema';
import { createWebhookLane } from '../apps/server/src/features/alerts/channels/webhook-lane';
import { generateWebhookSecret } from '../apps/server/src/features/alerts/channels/webhook-signature';
import { createAlertDelivery } from '../apps/server/src/features/alerts/delivery/delivery';
import { insertAlert } from '../apps/server/src/features/alerts/evaluation/alert-store';
import { createUsersRepo } from '../apps/server/src/features/auth/users.repo';
import { createSecretBox } from '../apps/server/src/lib/secret-box';
import { createMailer } from '../apps/server/src/providers/mail';
import { createSms } from '../apps/server/src/providers/sms';
import { withBenchDatabase } from './bench-database';

/** Endpoints measured in part 1; part 2's hanging ones come on top. */
const ENDPOINTS = 1_000;
const BUDGET_MS = 10_000;
const MAX_IN_FLIGHT = 50;
const SMS_BUDGET_MS = 1_000;

export async function run(): Promise<string[][]> {
  return withBenchDatabase('webhook', { poolSize: 20 }, async ({ db, temp }) => {
    const quiet = { info: () => undefined, warn: () => undefined };
    // The receiver: answers 200 at once, except under /hang/, which never answers.
    let inFlight = 0;
    let maxInFlight = 0;
    let answered = 0;
    let lastAt = 0;
    const receiver = http.createServer((request, response) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      request.resume();
      request.on('end', () => {
        if (request.url?.startsWith('/hang/')) return;
        inFlight -= 1;
        answered += 1;
        lastAt = performance.now();
        response.writeHead(200).end('ok');
      });
      response.on('close', () => {
        if (request.url?.startsWith('/hang/')) inFlight -= 1;
      });
    });
    receiver.keepAliveTimeout = 1;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;

    try {
      const config = loadConfig({
        DATA_DIR: path.join(temp, 'app'),
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      });
      const clock = { nowMs: () => Date.now() };
      const box = createSecretBox(Buffer.alloc(32, 7));
      const outbox = createSms(config, db, clock, 'bench');
      let smsHandedAt = 0;
      const sms = { ...outbox, send: async (message: { to: string; body: string }) => {
        smsHandedAt = performance.now();
        return outbox.send(message);
      } };
      const mailer = createMailer(config, db, clock);
      const webhooks = createWebhookLane({ db, box, mailer, clock, config, log: quiet });
      const delivery = createAlertDelivery({ db, sms, mailer, clock, config, log: quiet, jwtSecret: config.JWT_SECRET!, webhooks });

      const users = createUsersRepo(db);
      const now = new Date();
      const userIds: number[] = [];
      for (let index = 0; index < ENDPOINTS + MAX_IN_FLIGHT; index += 1) {
        const user = await users.create({ email: `webhook-bench-${index}@example.com`, passwordHash: 'x', firstLogin: false });
        userIds.push(user.id);
        await db.insert(alertRules).values({ userId: user.id, alertType: 'PERCENT_DROP', symbols: ['AAPL'], thresholdValue: 5, targets: [], enableSms: false, enableEmail: false, isActive: true, createdAt: now, updatedAt: now });
        await db.insert(alertWebhooks).values({
          userId: user.id,
          name: `Bench ${index}`,
          url: `http://127.0.0.1:${port}/${index < MAX_IN_FLIGHT ? 'hang' : 'ok'}/${index}`,
          alertTypes: ['PERCENT_DROP'],
          secretSealed: box.seal(generateWebhookSecret()),
          enabled: index >= MAX_IN_FLIGHT,
          createdAt: now,
          updatedAt: now,
        });
      }
      const alertOf = (userId: number, key: string, channels: Array<'sms' | 'email'> = []) => ({
        userId,
        alertType: 'PERCENT_DROP',
        symbol: 'AAPL',
        triggerKey: key,
        rule: {},
        data: { price: 94 },
        smsText: 'AAPL −6.0% to 94.00 (prev close 100.00)',
        emailSubject: 'AAPL dropped 6.0%',
        emailText: 'AAPL −6.0% to 94.00 (prev close 100.00).',
        channels,
        firedAt: new Date(),
        expiresAt: new Date(Date.now() + 15 * 60_000),
      });
      delivery.start(60_000);
      try {
        // 1. Throughput: the endpoints that answer (the first 50 are the hanging ones of part 2).
        const measured = userIds.slice(MAX_IN_FLIGHT);
        for (const [index, userId] of measured.entries()) await insertAlert(db, alertOf(userId, `bench-${index}`));
        const started = performance.now();
        delivery.kick();
        const deadline = Date.now() + 60_000;
        while (answered < measured.length) {
          if (Date.now() > deadline) throw new Error(`only ${answered} of ${measured.length} webhook deliveries arrived within 60 s`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const elapsed = lastAt - started;
        const perThousand = (elapsed / measured.length) * 1_000;

        // 2. Head of line: 50 hanging deliveries, then an SMS alert.
        await db.update(alertWebhooks).set({ enabled: true });
        const phoneUser = userIds[0]!;
        await db.insert(userPhones).values({ userId: phoneUser, phoneNumber: '+15555550100', smsEnabled: true, verifiedAt: now });
        await db.update(alertRules).set({ enableSms: true });
        for (let index = 0; index < MAX_IN_FLIGHT; index += 1) await insertAlert(db, alertOf(userIds[index]!, `hang-${index}`));
        delivery.kick();
        const hangDeadline = Date.now() + 10_000;
        while (inFlight < MAX_IN_FLIGHT) {
          if (Date.now() > hangDeadline) throw new Error(`only ${inFlight} hanging requests were sent within 10 s`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        smsHandedAt = 0;
        const smsCommitted = performance.now();
        await insertAlert(db, alertOf(phoneUser, 'sms', ['sms']));
        delivery.kick();
        const smsDeadline = Date.now() + 10_000;
        while (smsHandedAt === 0) {
          if (Date.now() > smsDeadline) throw new Error('the SMS was not handed to the provider within 10 s');
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        const smsMs = smsHandedAt - smsCommitted;
        return [
          [
            `webhooks: ${measured.length} alerts to ${measured.length} endpoints delivered (1 worker; ${Math.round(perThousand)} ms per 1,000; at most ${maxInFlight} in flight)`,
            `${(elapsed / 1000).toFixed(2)} s`,
            `< ${BUDGET_MS / 1000} s, ≤ ${MAX_IN_FLIGHT} in flight`,
            perThousand < BUDGET_MS && maxInFlight <= MAX_IN_FLIGHT ? 'ok' : 'OVER',
          ],
          [`webhooks: an SMS alert while ${MAX_IN_FLIGHT} webhook requests hang → handed to the SMS provider`, `${smsMs.toFixed(0)} ms`, `≤ ${SMS_BUDGET_MS} ms`, smsMs <= SMS_BUDGET_MS ? 'ok' : 'OVER'],
        ];
      } finally {
        receiver.closeAllConnections();
        await delivery.stop();
        mailer.close();
      }
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
}
