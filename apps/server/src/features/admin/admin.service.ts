/**
 * What an admin does to accounts (issue 28; docs/accounts.md): list them, change a role, deactivate
 * or reactivate, end every session, e-mail a temporary password. Each action is written to the audit
 * log with who, whom, when and from where. HTTP-free: admin.routes.ts translates.
 */
import type { AdminUser, UserRoleValue } from '@signalboard/core';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import type { AuthService } from '../auth/auth.service';
import type { SessionsRepo } from '../auth/sessions.repo';
import type { UsersRepo } from '../auth/users.repo';
import type { AuditActor, AuditRepo } from './audit.repo';

export const NO_SUCH_ACCOUNT_MSG = 'No account has this id.';
export const LAST_ADMIN_ADMIN_MSG = "This is the installation's only active admin: make another account an admin first.";

export interface AdminServiceDeps {
  db: Database;
  users: UsersRepo;
  sessions: SessionsRepo;
  auth: Pick<AuthService, 'sendTemporaryPassword'>;
  audit: AuditRepo;
  clock: Clock;
  /**
   * Counts a temporary password against the same per-e-mail limit as Forgot Password (each is a
   * mail to that address): throws the 429 when it is spent.
   */
  limitReset?: (email: string) => Promise<void>;
  /** Single sign-on (features/oidc): the users with a linked provider account, and whether members may use passwords (OIDC_ONLY). */
  singleSignOn?: { linkedUserIds: () => Promise<Set<number>>; passwordForm: 'everyone' | 'admins' };
}

type Admin = { id: number; email: string; address: string };
const actorOf = (admin: Admin): AuditActor => ({ userId: admin.id, email: admin.email, address: admin.address });
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function createAdminService({ db, users, sessions, auth, audit, clock, limitReset, singleSignOn }: AdminServiceDeps) {
  async function target(id: number) {
    const user = await users.findById(id);
    if (!user) throw new HttpError(404, NO_SUCH_ACCOUNT_MSG);
    return user;
  }

  return {
    async listUsers(me: number): Promise<AdminUser[]> {
      const now = new Date(clock.nowMs()).toISOString();
      const result = await db.execute(sql`
        select u.id, u.email, u.role, u.is_active, u.first_login, u.created_at,
               max(s.created_at) as last_sign_in_at,
               exists (select 1 from user_two_factor t where t.user_id = u.id and t.confirmed_at is not null) as two_factor,
               (count(s.id) filter (where s.ended_at is null and s.expires_at > ${now}::timestamptz))::int as live
          from users u left join sessions s on s.user_id = u.id
         group by u.id order by u.id`);
      const rows = result.rows as Array<{
        id: number;
        email: string;
        role: UserRoleValue;
        is_active: boolean;
        first_login: boolean;
        created_at: Date | string;
        last_sign_in_at: Date | string | null;
        live: number;
        two_factor: boolean;
      }>;
      const linked = singleSignOn ? await singleSignOn.linkedUserIds() : new Set<number>();
      // A member under OIDC_ONLY has a password nobody can sign in with.
      const passwords = (role: UserRoleValue) => singleSignOn?.passwordForm !== 'admins' || role === 'admin';
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        role: row.role,
        active: row.is_active,
        first_login: row.first_login,
        created_at: new Date(row.created_at).toISOString(),
        last_sign_in_at: row.last_sign_in_at === null ? null : new Date(row.last_sign_in_at).toISOString(),
        sessions: row.live,
        two_factor: row.two_factor,
        sign_in_methods: [...(passwords(row.role) ? ['password'] : []), ...(linked.has(row.id) ? ['oidc'] : [])],
        you: row.id === me,
      }));
    },

    async setRole(admin: Admin, id: number, role: UserRoleValue): Promise<string> {
      const user = await target(id);
      if (user.role === role) return `${user.email} is already ${role === 'admin' ? 'an admin' : 'a member'}.`;
      if ((await users.setRole(id, role)) === 'last-admin') throw new HttpError(409, LAST_ADMIN_ADMIN_MSG);
      await audit.record(actorOf(admin), { action: 'set-role', target: user, detail: { from: user.role, to: role } });
      return `${user.email} is ${role === 'admin' ? 'an admin' : 'a member'} now.`;
    },

    async setActive(admin: Admin, id: number, active: boolean): Promise<string> {
      const user = await target(id);
      if (user.isActive === active) return `${user.email} is already ${active ? 'active' : 'deactivated'}.`;
      if ((await users.setActive(id, active)) === 'last-admin') throw new HttpError(409, LAST_ADMIN_ADMIN_MSG);
      const ended = active ? 0 : await sessions.endAll(id, 'deactivated');
      await audit.record(actorOf(admin), { action: active ? 'reactivate' : 'deactivate', target: user, detail: active ? {} : { sessions_ended: ended } });
      return active ? `${user.email} is active again.` : `${user.email} is deactivated; ${plural(ended, 'session', 'sessions')} ended.`;
    },

    async endSessions(admin: Admin, id: number): Promise<string> {
      const user = await target(id);
      const ended = await sessions.endAll(id, 'admin');
      await audit.record(actorOf(admin), { action: 'end-sessions', target: user, detail: { sessions_ended: ended } });
      return `Ended ${plural(ended, 'session', 'sessions')} of ${user.email}.`;
    },

    async resetPassword(admin: Admin, id: number): Promise<string> {
      const user = await target(id);
      if (!user.isActive) throw new HttpError(400, `${user.email} is deactivated: reactivate the account first.`);
      await limitReset?.(user.email);
      await auth.sendTemporaryPassword(user.email);
      await audit.record(actorOf(admin), { action: 'reset-password', target: user });
      return `A temporary password is on its way to ${user.email} (valid one hour).`;
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
