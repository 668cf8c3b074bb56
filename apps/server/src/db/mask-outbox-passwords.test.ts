/**
 * Migration 0011: outbox_emails rows written before messages carried their secrets hold a reset's
 * temporary password in plain text; the migration masks it as the outbox writes it today
 * (providers/mail/types.ts maskSecrets), leaves every other row alone, and changes nothing when run again.
 * The database here is migrated to the end; the rows an upgraded database would hold are written,
 * then 0011's own SQL runs on them, as the migrator runs it on a database upgraded from 0010 (taking
 * its record out of drizzle's table no longer works once later migrations are applied: the migrator
 * only runs files newer than the last one recorded).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers';
import { maskSecrets } from '../providers/mail/types';
import { MIGRATIONS_DIR } from './client';
import { outboxEmails } from './schema';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> };
const MASKING = journal.entries.find((entry) => entry.tag === '0011_mask_outbox_passwords');

const RESET_SUBJECT = 'Your Signalboard temporary password';
const resetText = (password: string) =>
  ['Someone (we hope you) asked to reset the password of your Signalboard account.', '', `Temporary password: ${password}`, '', 'It works for one hour.'].join('\n');

describe('migration 0011: temporary passwords in old outbox rows', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  const runMaskingAgain = async () => {
    await database.pool.query(readFileSync(path.join(MIGRATIONS_DIR, `${MASKING!.tag}.sql`), 'utf8'));
  };
  const bodies = async () => (await database.db.select({ subject: outboxEmails.subject, textBody: outboxEmails.textBody }).from(outboxEmails).orderBy(asc(outboxEmails.id))).map((row) => row.textBody);

  it('masks the password of an old reset mail as the code writes it today, leaves other rows alone, and is idempotent', async () => {
    expect(MASKING, 'the migration is in the journal').toBeDefined();
    const old = 'AbCdEfGh23JkLm';
    const row = (subject: string, textBody: string) => ({ toAddress: 'a@example.com', subject, textBody, sizeBytes: 1, emlPath: '/tmp/x.eml' });
    const masked = maskSecrets(resetText('Zq8Wx3Hk5Mn7Pr'), ['Zq8Wx3Hk5Mn7Pr']);
    const support = 'My old Temporary password: Hunter22 did not work';
    await database.db.insert(outboxEmails).values([row(RESET_SUBJECT, resetText(old)), row(RESET_SUBJECT, masked), row('[Support] help', support)]);

    await runMaskingAgain();
    const after = await bodies();
    expect(after).toEqual([maskSecrets(resetText(old), [old]), masked, support]);
    expect(after[0]).not.toContain(old);
    expect(after[0]).toContain(`Temporary password: ${'•'.repeat(old.length)}`);

    await runMaskingAgain();
    expect(await bodies()).toEqual(after);
  });
});
