import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Seals secrets the server keeps (webhook secrets, channel tokens) so a copy of the database does not give them away. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /**
   * A keyed hash (HMAC-SHA256, base64url) of `text` for `purpose`: the same text hashes the same, so a
   * sealed value can be found by it (a Telegram chat's /stop), and a copy of the database gives no
   * way to test guesses without the key.
   */
  digest(purpose: string, text: string): string;
}

/** The key a container seals with when none is given (tests, tools): derived from the JWT secret, never the secret itself. */
export const derivedSecretBoxKey = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('signalboard channel secrets').digest();

const VERSION = 'v1.';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_FILE = 'encryption-key';

export const CANNOT_DECRYPT_MSG = 'Cannot decrypt a stored secret: ENCRYPTION_KEY or DATA_DIR/encryption-key changed?';

/**
 * AES-256-GCM with a random 12-byte IV per seal: 'v1.' + base64url(iv ‖ tag ‖ ciphertext). The tag
 * makes a changed value or a different key an error on open, never a wrong secret sent on.
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`The encryption key must be ${KEY_BYTES} bytes, not ${key.length}.`);
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    },
    open(sealed) {
      const bytes = sealed.startsWith(VERSION) ? Buffer.from(sealed.slice(VERSION.length), 'base64url') : Buffer.alloc(0);
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error(CANNOT_DECRYPT_MSG);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new Error(CANNOT_DECRYPT_MSG, { cause: error });
      }
    },
    digest(purpose, text) {
      return createHmac('sha256', key).update(`${purpose}\0${text}`).digest('base64url');
    },
  };
}

/** 32 bytes written as 64 hex characters, or as base64 / base64url (43 characters, padded or not); undefined otherwise. */
function parseKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text) || /^[A-Za-z0-9_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  return undefined;
}

/** The key in DATA_DIR/encryption-key; undefined while there is none (missing, or created and not yet written). */
async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text === '') return undefined;
  const key = parseKey(text);
  // Never replace it: every secret sealed with it would be lost.
  if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex characters): restore it from a backup, or set ENCRYPTION_KEY.`);
  return key;
}

/**
 * ENCRYPTION_KEY (64 hex characters, or base64 of 32 bytes), or a key generated once and kept in
 * DATA_DIR/encryption-key (readable by the owner only). The file is created exclusively, so two
 * processes starting together agree on one key: the second reads the first one's.
 */
export async function resolveEncryptionKey(config: { ENCRYPTION_KEY?: string | undefined; DATA_DIR: string }): Promise<Buffer> {
  if (config.ENCRYPTION_KEY) {
    const key = parseKey(config.ENCRYPTION_KEY.trim());
    if (!key) throw new Error('ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or in base64 (e.g. the output of `openssl rand -hex 32`).');
    return key;
  }
  const file = path.join(config.DATA_DIR, KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  await fs.mkdir(config.DATA_DIR, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    await fs.writeFile(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process created it first: use theirs, once it has been written (up to a second).
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const theirs = await readKeyFile(file);
    if (theirs) return theirs;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${file} is empty: delete it to generate a new key (only if no secret was stored with it), or set ENCRYPTION_KEY.`);
}
