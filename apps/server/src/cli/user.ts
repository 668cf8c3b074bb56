/**
 * Admin commands: npm run user -- add <email> [--password <pw>] [--admin] | list | reset <email> |
 * reset-two-factor <email> | deactivate <email> | activate <email> | promote <email> | demote <email>
 * Uses DATA_DIR / DATABASE_URL like the server; with the embedded database it connects to the running
 * server, or starts it for the command and stops it after.
 */
import { parseArgs } from 'node:util';
import { loginRequest, formatIssues } from '@signalboard/core';
import { pgErrorCode } from '../db/errors';
import { runCommand, withDatabase } from './command';
import { createAuditRepo, type AuditRecord } from '../features/admin/audit.repo';
import { createSessionsRepo, type SessionsRepo } from '../features/auth/sessions.repo';
import { createUsersRepo, type UsersRepo } from '../features/auth/users.repo';
import { createTwoFactorRepo, type TwoFactorRepo } from '../features/two-factor/two-factor.repo';
import { generateTemporaryPassword, hashPassword } from '../lib/password';

const USAGE = `Usage: npm run user -- <command>
  add <email> [--password <pw>] [--admin]
                                  create an account (a temporary password is generated and printed when none is given; the account must change it at first login); --admin: an admin
  list                            list accounts
  reset <email>                   set a new temporary password (printed), end its sessions, and require a change at next login
  reset-two-factor <email>        turn an account's two-factor sign-in off (a lost phone, no recovery code left) and end its sessions
  deactivate <email>              deactivate an account; its sessions end and its tokens stop working at once
  activate <email>                re-activate a deactivated account
  promote <email>                 make an account an admin
  demote <email>                  make an admin a member (never the last active admin)`;

const LAST_ADMIN = (email: string, doing: string) => `${email} is the only active admin: make another account an admin (promote) before you ${doing} it.`;

class UsageError extends Error {}

function parseEmail(raw: string | undefined): string {
  if (!raw) throw new UsageError('An e-mail address is required.');
  const result = loginRequest.shape.email.safeParse(raw);
  if (!result.success) throw new UsageError(formatIssues(result.error));
  return result.data;
}

async function requireUser(users: UsersRepo, email: string) {
  const user = await users.findByEmail(email);
  if (!user) throw new UsageError(`No account for ${email}.`);
  return user;
}

async function run(
  command: string | undefined,
  args: string[],
  options: { password?: string; admin?: boolean },
  users: UsersRepo,
  sessions: SessionsRepo,
  twoFactor: Pick<TwoFactorRepo, 'remove'>,
  log: (entry: AuditRecord) => Promise<void>,
) {
  const { password } = options;
  switch (command) {
    case 'add': {
      const email = parseEmail(args[0]);
      const chosen = password ?? generateTemporaryPassword();
      try {
        const created = await users.create({ email, passwordHash: await hashPassword(chosen), firstLogin: true, role: options.admin ? 'admin' : 'member' });
        await log({ action: 'create', target: created, detail: { role: created.role } });
      } catch (error) {
        if (pgErrorCode(error) === '23505') throw new UsageError(`An account for ${email} already exists.`);
        throw error;
      }
      console.log(`Created ${options.admin ? 'admin ' : ''}${email}${password ? '' : ` with temporary password: ${chosen}`}`);
      console.log('The password must be changed at first login.');
      return;
    }
    case 'list': {
      const rows = await users.list();
      if (rows.length === 0) console.log('No accounts.');
      for (const row of rows) {
        const flags = [row.role, row.isActive ? 'active' : 'deactivated', row.firstLogin ? 'first-login' : ''].filter(Boolean);
        console.log(`${row.email}\t${flags.join(', ')}\tcreated ${row.createdAt.toISOString()}`);
      }
      return;
    }
    case 'reset': {
      const user = await requireUser(users, parseEmail(args[0]));
      const temporary = password ?? generateTemporaryPassword();
      await users.setPassword(user.id, await hashPassword(temporary), true);
      const ended = await sessions.endAll(user.id, 'password-reset');
      await log({ action: 'reset-password', target: user, detail: { sessions_ended: ended } });
      console.log(`Password of ${user.email} reset${password ? '' : ` to temporary password: ${temporary}`}`);
      if (ended > 0) console.log(`Ended ${ended} ${ended === 1 ? 'session' : 'sessions'}.`);
      console.log('The password must be changed at next login.');
      return;
    }
    case 'reset-two-factor': {
      // As Administration's Reset two-factor, for when no admin can sign in (docs/accounts.md).
      const user = await requireUser(users, parseEmail(args[0]));
      const wasOn = await twoFactor.remove(user.id);
      const ended = await sessions.endAll(user.id, 'admin');
      await log({ action: 'reset-two-factor', target: user, detail: { was_on: wasOn, sessions_ended: ended } });
      console.log(wasOn ? `Two-factor sign-in of ${user.email} is off.` : `${user.email} had no two-factor sign-in on.`);
      if (ended > 0) console.log(`Ended ${ended} ${ended === 1 ? 'session' : 'sessions'}.`);
      return;
    }
    case 'deactivate':
    case 'activate': {
      const user = await requireUser(users, parseEmail(args[0]));
      if ((await users.setActive(user.id, command === 'activate')) === 'last-admin') throw new UsageError(LAST_ADMIN(user.email, 'deactivate'));
      const ended = command === 'deactivate' ? await sessions.endAll(user.id, 'deactivated') : 0;
      await log({ action: command === 'activate' ? 'reactivate' : 'deactivate', target: user, detail: command === 'activate' ? {} : { sessions_ended: ended } });
      console.log(`${user.email} ${command === 'activate' ? 're-activated' : 'deactivated'}.`);
      return;
    }
    case 'promote':
    case 'demote': {
      const user = await requireUser(users, parseEmail(args[0]));
      const role = command === 'promote' ? 'admin' : 'member';
      if (user.role === role) {
        console.log(`${user.email} is already ${role === 'admin' ? 'an admin' : 'a member'}.`);
        return;
      }
      if ((await users.setRole(user.id, role)) === 'last-admin') throw new UsageError(LAST_ADMIN(user.email, 'demote'));
      await log({ action: 'set-role', target: user, detail: { from: user.role, to: role } });
      console.log(`${user.email} is ${role === 'admin' ? 'an admin' : 'a member'} now.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".` : 'A command is required.');
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { password: { type: 'string' }, admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, ...args] = positionals;
  if (!['add', 'list', 'reset', 'reset-two-factor', 'deactivate', 'activate', 'promote', 'demote'].includes(command ?? '')) {
    console.error(`${command ? `Unknown command "${command}".` : 'A command is required.'}\n${USAGE}`);
    return 2;
  }
  if (values.admin && command !== 'add') {
    console.error('--admin goes with add; to make an existing account an admin: npm run user -- promote <email>.');
    return 2;
  }
  if (values.password !== undefined && values.password.length === 0) {
    console.error('--password must not be empty.');
    return 2;
  }
  try {
    await withDatabase((database) =>
      run(command, args, { ...(values.password !== undefined ? { password: values.password } : {}), admin: values.admin ?? false }, createUsersRepo(database.db), createSessionsRepo(database.db), createTwoFactorRepo(database.db), (entry) =>
        createAuditRepo(database.db).record({ name: 'command line' }, entry),
      ),
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

runCommand(main);
