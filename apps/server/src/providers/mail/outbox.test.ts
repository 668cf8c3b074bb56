import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createTestDatabase, FakeClock } from '../../../test/helpers';
import { createOutboxMailer } from './outbox';
import { MailError, type Mailer } from './types';

describe('the outbox mailer', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let mailer: Mailer;
  const dir = () => path.join(dataDir, 'outbox');
  const files = async () => fs.readdir(dir()).catch(() => [] as string[]);
  const rows = async () => database.db.select().from(outboxEmails);
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-outbox-test-'));
    mailer = createOutboxMailer({ db: database.db, dir: dir(), from: 'no-reply@signalboard.local', clock: new FakeClock() });
  });
  afterAll(async () => {
    mailer.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('records the message and writes its .eml file', async () => {
    await mailer.send({ to: 'support@signalboard.local', subject: 'Hello', text: 'Body', attachments: [{ filename: 'a.txt', content: Buffer.from('a') }] });
    const [row] = await rows();
    expect(row).toMatchObject({ toAddress: 'support@signalboard.local', subject: 'Hello', attachmentNames: ['a.txt'] });
    expect(await files()).toEqual([path.basename(row!.emlPath)]);
    expect(await fs.readFile(row!.emlPath, 'utf8')).toContain('Subject: Hello');
  });

  it("keeps the message's secrets masked in the row, while the .eml (the delivered mail) has them", async () => {
    const text = 'Your code: Xy7-secret-Q2\nAgain: Xy7-secret-Q2\nAnd pin 4711.';
    const { id } = await mailer.send({ to: 'reset@signalboard.local', subject: 'Secret', text, secrets: ['Xy7-secret-Q2', '4711'] });
    const row = (await rows()).find((candidate) => String(candidate.id) === id)!;
    expect(row.textBody).toBe(`Your code: ${'•'.repeat(13)}\nAgain: ${'•'.repeat(13)}\nAnd pin ••••.`);
    const eml = await fs.readFile(row.emlPath, 'utf8');
    expect(eml).toContain('Your code: Xy7-secret-Q2');
    expect(eml).toContain('And pin 4711.');
    expect(eml).not.toMatch(/secrets/i);
  });

  it('sends nothing when the database refuses the row (the file is written only after the row is committed)', async () => {
    const before = { rows: (await rows()).length, files: (await files()).length };
    // PostgreSQL text cannot hold NUL: the insert fails.
    await expect(mailer.send({ to: 'support@signalboard.local', subject: 'Hi', text: 'a\u0000b' })).rejects.toBeInstanceOf(MailError);
    expect({ rows: (await rows()).length, files: (await files()).length }).toEqual(before);
  });

  it('takes the row back out when the file cannot be written', async () => {
    const blocked = createOutboxMailer({ db: database.db, dir: path.join(dataDir, 'not-a-dir', 'outbox'), from: 'no-reply@signalboard.local', clock: new FakeClock() });
    await fs.writeFile(path.join(dataDir, 'not-a-dir'), 'a file where the directory should be');
    const before = (await rows()).length;
    try {
      await expect(blocked.send({ to: 'support@signalboard.local', subject: 'Hi', text: 'b' })).rejects.toBeInstanceOf(MailError);
    } finally {
      blocked.close();
    }
    expect((await rows()).length).toBe(before);
  });
});
