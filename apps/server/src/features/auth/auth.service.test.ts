/**
 * Sign-in does the same argon2 work whatever the account: a refusal must not tell, by its time, an
 * unknown e-mail from a known one, nor an account with a pending reset (a temporary password) from
 * one without. The verifier is the real one, wrapped to count its calls.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/password';
import { createAuthService, INVALID_CREDENTIALS_MSG } from './auth.service';
import type { SessionsRepo } from './sessions.repo';
import type { UserRow, UsersRepo } from './users.repo';

const HOUR_MS = 3_600_000;
const clock = new FakeClock();

function account(id: number, email: string, passwordHash: string, temp?: { hash: string; expiresAtMs: number }, isActive = true): UserRow {
  return {
    id,
    email,
    passwordHash,
    tempPasswordHash: temp?.hash ?? null,
    tempPasswordExpiresAt: temp ? new Date(temp.expiresAtMs) : null,
    firstLogin: false,
    isActive,
    createdAt: new Date(clock.nowMs()),
  } as UserRow;
}

let rows: UserRow[];
let verifyCalls = 0;
const passwordSets: number[] = [];
const auth = createAuthService({
  users: {
    findByEmail: async (email: string) => rows.find((row) => row.email === email),
    setPassword: async (id: number) => void passwordSets.push(id),
  } as unknown as UsersRepo,
  sessions: {} as SessionsRepo,
  mailer: { send: async () => ({ id: '1' }) },
  clock,
  passwords: {
    verify: async (passwordHash, password) => {
      verifyCalls += 1;
      return verifyPassword(passwordHash, password);
    },
    decoyHash: decoyPasswordHash,
  },
});

/** The verifications one sign-in made, and how it ended. */
async function attempt(email: string, password: string): Promise<{ verifications: number; outcome: string }> {
  verifyCalls = 0;
  const outcome = await auth.authenticate(email, password).then(
    (result) => `signed in${result.firstLogin ? ' (first login)' : ''}`,
    (error: Error & { statusCode?: number }) => `${error.statusCode} ${error.message}`,
  );
  return { verifications: verifyCalls, outcome };
}

beforeAll(async () => {
  const [own, temporary, oldTemporary] = await Promise.all([hashPassword('own-password'), hashPassword('temporary-pw'), hashPassword('expired-temp')]);
  const now = clock.nowMs();
  rows = [
    account(1, 'plain@example.com', own),
    account(2, 'reset@example.com', own, { hash: temporary, expiresAtMs: now + HOUR_MS }),
    account(3, 'expired@example.com', own, { hash: oldTemporary, expiresAtMs: now - 1 }),
    account(4, 'inactive@example.com', own, { hash: temporary, expiresAtMs: now + HOUR_MS }, false),
  ];
});

describe('authenticate: the same work in every case', () => {
  it('verifies as many hashes for a wrong password whether the e-mail is unknown, has no temporary password, or has one (pending or expired)', async () => {
    const refused = { verifications: 2, outcome: `401 ${INVALID_CREDENTIALS_MSG}` };
    expect(await attempt('nobody@example.com', 'wrong')).toEqual(refused);
    expect(await attempt('plain@example.com', 'wrong')).toEqual(refused);
    expect(await attempt('reset@example.com', 'wrong')).toEqual(refused);
    expect(await attempt('expired@example.com', 'wrong')).toEqual(refused);
    expect(await attempt('inactive@example.com', 'wrong')).toEqual(refused);
  });

  it('verifies as many when the password or the temporary one is right', async () => {
    expect(await attempt('plain@example.com', 'own-password')).toEqual({ verifications: 2, outcome: 'signed in' });
    expect(await attempt('reset@example.com', 'own-password')).toEqual({ verifications: 2, outcome: 'signed in' });
    expect(await attempt('inactive@example.com', 'own-password')).toEqual({ verifications: 2, outcome: '403 This account has been deactivated. Contact support to restore it.' });
    expect(passwordSets).toEqual([]);
    expect(await attempt('expired@example.com', 'expired-temp')).toEqual({ verifications: 2, outcome: `401 ${INVALID_CREDENTIALS_MSG}` });
    expect(await attempt('reset@example.com', 'temporary-pw')).toEqual({ verifications: 2, outcome: 'signed in (first login)' });
    expect(passwordSets).toEqual([2]);
  });
});
