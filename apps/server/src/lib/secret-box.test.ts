import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANNOT_DECRYPT_MSG, createSecretBox, resolveEncryptionKey } from './secret-box';

describe('createSecretBox', () => {
  const box = createSecretBox(randomBytes(32));

  it('opens what it sealed, any text included', () => {
    for (const plain of ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '', 'tk_ünïcødé ✓ 📈', 'x'.repeat(10_000)]) {
      const sealed = box.seal(plain);
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      expect(sealed).not.toContain(plain || 'never');
      expect(box.open(sealed)).toBe(plain);
    }
  });

  it('seals one text differently each time (a random IV per seal)', () => {
    const first = box.seal('same secret');
    const second = box.seal('same secret');
    expect(first).not.toBe(second);
    expect(box.open(first)).toBe(box.open(second));
  });

  it('refuses a sealed value changed anywhere: IV, tag or ciphertext', () => {
    const bytes = Buffer.from(box.seal('a webhook secret').slice(3), 'base64url');
    for (const index of [0, 11, 12, 27, 28, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[index]! ^= 0x01;
      expect(() => box.open(`v1.${changed.toString('base64url')}`), `byte ${index}`).toThrow(CANNOT_DECRYPT_MSG);
    }
    expect(() => box.open(`v1.${bytes.subarray(0, bytes.length - 1).toString('base64url')}`)).toThrow(CANNOT_DECRYPT_MSG);
  });

  it('refuses a value sealed with another key', () => {
    const sealed = box.seal('a token');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(new Error(CANNOT_DECRYPT_MSG));
  });

  it('refuses text that is no sealed value', () => {
    for (const sealed of ['', 'v1.', 'v1.AAAA', 'plain text', `v2.${'A'.repeat(60)}`]) expect(() => box.open(sealed), sealed).toThrow(CANNOT_DECRYPT_MSG);
  });

  it('takes only a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow('The encryption key must be 32 bytes, not 16.');
  });
});

describe('resolveEncryptionKey', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-secret-box-test-'));
  });
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const key = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');

  it('reads ENCRYPTION_KEY as hex, base64 or base64url, and writes no file', async () => {
    const fromEnv = (ENCRYPTION_KEY: string) => resolveEncryptionKey({ ENCRYPTION_KEY, DATA_DIR: dataDir });
    expect(await fromEnv(key.toString('hex'))).toEqual(key);
    expect(await fromEnv(key.toString('hex').toUpperCase())).toEqual(key);
    expect(await fromEnv(key.toString('base64'))).toEqual(key);
    expect(await fromEnv(` ${key.toString('base64')}\n`)).toEqual(key);
    expect(await fromEnv(key.toString('base64url'))).toEqual(key);
    const dashed = Buffer.alloc(32, 0xfb);
    expect(await fromEnv(dashed.toString('base64url'))).toEqual(dashed);
    expect(await fromEnv(dashed.toString('base64'))).toEqual(dashed);
    expect(await fs.readdir(dataDir)).toEqual([]);
  });

  it('throws an error naming ENCRYPTION_KEY for any other value', async () => {
    for (const bad of ['secret', key.toString('hex').slice(1), `${key.toString('hex')}00`, randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), `${'g'.repeat(64)}`]) {
      await expect(resolveEncryptionKey({ ENCRYPTION_KEY: bad, DATA_DIR: dataDir }), bad).rejects.toThrow(/^ENCRYPTION_KEY must be 32 bytes/);
    }
  });

  it('generates a key once into DATA_DIR/encryption-key, readable by the owner only, and reads it back', async () => {
    const nested = path.join(dataDir, 'data');
    const first = await resolveEncryptionKey({ DATA_DIR: nested });
    expect(first).toHaveLength(32);
    const file = path.join(nested, 'encryption-key');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(file, 'utf8')).toBe(`${first.toString('hex')}\n`);
    expect(await resolveEncryptionKey({ DATA_DIR: nested, ENCRYPTION_KEY: undefined })).toEqual(first);
    expect(await resolveEncryptionKey({ DATA_DIR: nested, ENCRYPTION_KEY: '' })).toEqual(first);
    // A value sealed before a restart opens after it.
    const sealed = createSecretBox(first).seal('kept');
    expect(createSecretBox(await resolveEncryptionKey({ DATA_DIR: nested })).open(sealed)).toBe('kept');
  });

  it('prefers ENCRYPTION_KEY to the file', async () => {
    await fs.writeFile(path.join(dataDir, 'encryption-key'), `${randomBytes(32).toString('hex')}\n`);
    expect(await resolveEncryptionKey({ ENCRYPTION_KEY: key.toString('hex'), DATA_DIR: dataDir })).toEqual(key);
  });

  it('reads a key file written as base64', async () => {
    await fs.writeFile(path.join(dataDir, 'encryption-key'), key.toString('base64'));
    expect(await resolveEncryptionKey({ DATA_DIR: dataDir })).toEqual(key);
  });

  it('agrees on one key when processes start together', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => resolveEncryptionKey({ DATA_DIR: dataDir })));
    for (const each of keys) expect(each).toEqual(keys[0]);
    expect(await fs.readFile(path.join(dataDir, 'encryption-key'), 'utf8')).toBe(`${keys[0]!.toString('hex')}\n`);
  });

  it('waits for a key file another process created and has not written yet', async () => {
    const file = path.join(dataDir, 'encryption-key');
    await fs.writeFile(file, '');
    setTimeout(() => void fs.writeFile(file, key.toString('hex')), 100);
    expect(await resolveEncryptionKey({ DATA_DIR: dataDir })).toEqual(key);
  });

  it('never replaces a key file that holds no key: it throws, naming the file', async () => {
    const file = path.join(dataDir, 'encryption-key');
    await fs.writeFile(file, 'not a key\n');
    await expect(resolveEncryptionKey({ DATA_DIR: dataDir })).rejects.toThrow(`${file} does not hold a 32-byte key`);
    expect(await fs.readFile(file, 'utf8')).toBe('not a key\n');
  });
});
