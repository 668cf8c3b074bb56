import type { Config } from '../../config';
import { pgErrorCode } from '../../db/errors';
import { isLoopbackHost } from '../../lib/loopback';
import { hashPassword } from '../../lib/password';
import type { UsersRepo } from './users.repo';

export const DEMO_EMAIL = 'demo@signalboard.local';
export const DEMO_PASSWORD = 'demo';

export { isLoopbackHost };

export interface DemoAccountPlan {
  create: boolean;
  /** Set when DEMO_ACCOUNT=true puts the demo account where others can reach it: logged at every start. */
  warning?: string;
}

/**
 * Whether this server has the demo account. DEMO_ACCOUNT unset: only for the one-machine `npm start`
 * (HOST on loopback, embedded database); `false`: never; `true`: always, with a warning when the
 * server listens beyond loopback or runs on an external database (a served installation).
 */
export function demoAccountPlan(config: Pick<Config, 'DEMO_ACCOUNT' | 'HOST' | 'isExternalDatabase'>): DemoAccountPlan {
  const local = isLoopbackHost(config.HOST) && !config.isExternalDatabase;
  if (config.DEMO_ACCOUNT === false) return { create: false };
  if (config.DEMO_ACCOUNT === undefined) return { create: local };
  if (local) return { create: true };
  const where = config.isExternalDatabase ? 'on an external database (DATABASE_URL)' : `on HOST=${config.HOST}, beyond this machine`;
  return {
    create: true,
    warning:
      `DEMO_ACCOUNT=true ${where}: anyone who reaches this server can sign in as ${DEMO_EMAIL} with the password ` +
      `"${DEMO_PASSWORD}" until that password is changed. Unset DEMO_ACCOUNT (or set it to false) on a served installation.`,
  };
}

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

/** What the server runs at start: the plan's warning (a pino warn line), then the account when planned. */
export async function startDemoAccount(
  config: Pick<Config, 'DEMO_ACCOUNT' | 'HOST' | 'isExternalDatabase'>,
  users: UsersRepo,
  log: { warn(message: string): void },
): Promise<boolean> {
  const plan = demoAccountPlan(config);
  if (plan.warning) log.warn(plan.warning);
  return plan.create ? ensureDemoAccount(users) : false;
}
