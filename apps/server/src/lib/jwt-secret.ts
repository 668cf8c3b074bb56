import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';

/** JWT_SECRET, or a secret generated once and kept in DATA_DIR/jwt-secret (readable by the owner only). */
export async function resolveJwtSecret(config: Pick<Config, 'JWT_SECRET' | 'DATA_DIR'>): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = path.join(config.DATA_DIR, 'jwt-secret');
  try {
    const existing = (await fs.readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: generate below
  }
  await fs.mkdir(config.DATA_DIR, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    // Another process wrote it first: use theirs.
    return (await fs.readFile(file, 'utf8')).trim();
  }
}
