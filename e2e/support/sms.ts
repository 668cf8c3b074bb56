import fs from 'node:fs/promises';
import path from 'node:path';
import { serverDataDir, type TestServer } from './browser';

/** Every SMS the test server's outbox wrote to `to` (DATA_DIR/sms-outbox/*.txt), oldest first. */
export async function outboxSmsTo(to: string, server: TestServer = 'app'): Promise<string[]> {
  const dir = path.join(serverDataDir(server), 'sms-outbox');
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.txt')).sort();
  const texts = await Promise.all(files.map((file) => fs.readFile(path.join(dir, file), 'utf8')));
  return texts.filter((text) => text.startsWith(`To: ${to}\n`));
}

/** The verification code of the newest SMS to `to` ("… code is NNNNNN."). */
export async function latestVerificationCode(to: string, server: TestServer = 'app'): Promise<string> {
  const texts = await outboxSmsTo(to, server);
  const code = texts.at(-1)?.match(/code is (\d{6})\./)?.[1];
  if (!code) throw new Error(`no verification SMS to ${to} in the outbox`);
  return code;
}

/** A phone number no other test uses: +1 555 and seven random digits (the per-number limit counts every user's sends). */
export function uniquePhoneNumber(): string {
  return `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
}
