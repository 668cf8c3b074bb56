import { pgErrorCode } from '../../db/errors';
import { hashPassword } from '../../lib/password';
import type { UsersRepo } from './users.repo';

export const DEMO_EMAIL = 'demo@signalboard.local';
export const DEMO_PASSWORD = 'demo';

/** On a database with no users, creates the demo account (first-login). Answers whether it did. */
export async function ensureDemoAccount(users: UsersRepo): Promise<boolean> {
  if ((await users.count()) > 0) return false;
  try {
    await users.create({ email: DEMO_EMAIL, passwordHash: await hashPassword(DEMO_PASSWORD), firstLogin: true });
    return true;
  } catch (error) {
    if (pgErrorCode(error) === '23505') return false; // another process created it
    throw error;
  }
}
