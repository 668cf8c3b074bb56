import { describe, expect, it } from 'vitest';
import { decoyPasswordHash, generateTemporaryPassword, hashPassword, verifyPassword } from './password';

const TEMP_ALPHABET = /^[ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789]+$/;

describe('password hashing', () => {
  it('hashes with argon2id at 19 MiB, 2 passes, a fresh salt each time', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first.startsWith('$argon2id$')).toBe(true);
    expect(first).toContain('m=19456,t=2,p=1');
    expect(first).not.toContain('correct horse');
    expect(second).not.toBe(first);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const digest = await hashPassword('Tr0ub4dor&3 ünïcode');
    expect(await verifyPassword(digest, 'Tr0ub4dor&3 ünïcode')).toBe(true);
    expect(await verifyPassword(digest, 'tr0ub4dor&3 ünïcode')).toBe(false);
    expect(await verifyPassword(digest, 'Tr0ub4dor&3 ünïcode ')).toBe(false);
    expect(await verifyPassword(digest, '')).toBe(false);
  });

  it('answers false, never throws, for a garbage or empty hash', async () => {
    for (const garbage of ['', 'not-a-hash', '$argon2id$v=19$m=19456,t=2,p=1$broken', '$2b$10$abcdefghijklmnopqrstuv']) {
      await expect(verifyPassword(garbage, 'anything'), garbage).resolves.toBe(false);
    }
  });

  it('keeps one decoy hash that no guessed password matches', async () => {
    const decoy = await decoyPasswordHash();
    expect(await decoyPasswordHash()).toBe(decoy);
    expect(decoy.startsWith('$argon2id$')).toBe(true);
    for (const guess of ['', 'decoy', 'decoy-0', 'password']) expect(await verifyPassword(decoy, guess)).toBe(false);
  });
});

describe('generateTemporaryPassword', () => {
  it('makes 14 characters from an alphabet without look-alikes', () => {
    const samples = Array.from({ length: 500 }, () => generateTemporaryPassword());
    for (const sample of samples) {
      expect(sample).toHaveLength(14);
      expect(sample).toMatch(TEMP_ALPHABET);
    }
    expect(samples.join('')).not.toMatch(/[IOl01]/);
    expect(new Set(samples).size).toBe(samples.length);
    // All three character classes turn up across the samples.
    const all = samples.join('');
    expect(all).toMatch(/[A-Z]/);
    expect(all).toMatch(/[a-z]/);
    expect(all).toMatch(/[2-9]/);
  });

  it('honours another length', () => {
    expect(generateTemporaryPassword(20)).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789]{20}$/);
    expect(generateTemporaryPassword(0)).toBe('');
  });
});
