import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSms, smsVerificationCodes } from '../../db/schema';
import { createTestDatabase, FakeClock } from '../../../test/helpers';
import { createOutboxSms } from './outbox';
import { SmsError, type Sms } from './types';

/** The code of the newest verification SMS to `to`, read from its file (as a phone would). */
async function codeFromFile(dir: string, to: string): Promise<string> {
  const names = (await fs.readdir(dir)).sort();
  for (const name of names.reverse()) {
    const text = await fs.readFile(path.join(dir, name), 'utf8');
    const match = /code is (\d{6})\./.exec(text);
    if (text.startsWith(`To: ${to}\n`) && match) return match[1]!;
  }
  throw new Error(`no verification SMS to ${to}`);
}

describe('the outbox SMS provider', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let sms: Sms;
  const clock = new FakeClock();
  const dir = () => path.join(dataDir, 'sms-outbox');
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-sms-outbox-test-'));
    sms = createOutboxSms({ db: database.db, dir: dir(), clock, hashKey: 'test-key' });
  });
  afterAll(async () => {
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('sends a 6-digit code that verifies once, and keeps only its hash in the database', async () => {
    await sms.sendVerification('+15550000001');
    const code = await codeFromFile(dir(), '+15550000001');
    expect(code).toMatch(/^\d{6}$/);
    const dump = JSON.stringify([
      await database.db.select().from(smsVerificationCodes),
      await database.db.select().from(outboxSms),
    ]);
    expect(dump).not.toContain(code);
    const [row] = await database.db.select().from(outboxSms);
    expect(row).toMatchObject({ toNumber: '+15550000001', kind: 'verification', body: expect.stringContaining('••••••') });
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await sms.checkVerification('+15550000001', wrong)).toBe('wrong');
    expect(await sms.checkVerification('+15550000001', code)).toBe('approved');
    // Approved codes are used up.
    expect(await sms.checkVerification('+15550000001', code)).toBe('expired');
  });

  it('answers expired after 10 minutes, and for a number that was never sent a code', async () => {
    await sms.sendVerification('+15550000002');
    const code = await codeFromFile(dir(), '+15550000002');
    clock.advance(10 * 60 * 1000);
    expect(await sms.checkVerification('+15550000002', code)).toBe('expired');
    expect(await sms.checkVerification('+15550000099', '123456')).toBe('expired');
  });

  it('allows 5 checks per code, then max_attempts even for the right code', async () => {
    await sms.sendVerification('+15550000003');
    const code = await codeFromFile(dir(), '+15550000003');
    const wrong = code === '111111' ? '222222' : '111111';
    for (let check = 0; check < 5; check += 1) expect(await sms.checkVerification('+15550000003', wrong)).toBe('wrong');
    expect(await sms.checkVerification('+15550000003', code)).toBe('max_attempts');
  });

  it('a new code replaces the earlier one', async () => {
    await sms.sendVerification('+15550000004');
    const first = await codeFromFile(dir(), '+15550000004');
    clock.advance(1000);
    await sms.sendVerification('+15550000004');
    const second = await codeFromFile(dir(), '+15550000004');
    if (first !== second) expect(await sms.checkVerification('+15550000004', first)).toBe('wrong');
    expect(await sms.checkVerification('+15550000004', second)).toBe('approved');
  });

  it('records a plain message in full and writes its file', async () => {
    const { id } = await sms.send({ to: '+15550000005', body: 'AAPL −5.3% to 212.40' });
    const rows = await database.db.select().from(outboxSms);
    const row = rows.find((candidate) => String(candidate.id) === id)!;
    expect(row).toMatchObject({ toNumber: '+15550000005', kind: 'message', body: 'AAPL −5.3% to 212.40' });
    expect(await fs.readFile(row.filePath, 'utf8')).toContain('AAPL −5.3% to 212.40');
  });

  it('takes the code and the row back when the file cannot be written', async () => {
    await fs.writeFile(path.join(dataDir, 'blocked'), 'a file where the directory should be');
    const blocked = createOutboxSms({ db: database.db, dir: path.join(dataDir, 'blocked', 'sms-outbox'), clock, hashKey: 'test-key' });
    const before = { codes: (await database.db.select().from(smsVerificationCodes)).length, rows: (await database.db.select().from(outboxSms)).length };
    await expect(blocked.sendVerification('+15550000006')).rejects.toBeInstanceOf(SmsError);
    expect({ codes: (await database.db.select().from(smsVerificationCodes)).length, rows: (await database.db.select().from(outboxSms)).length }).toEqual(before);
  });
});
