/**
 * Roles (issue 28): members and admins; ADMIN_EMAILS makes admins at each start; the last active
 * admin is never demoted or deactivated, even by two admins demoting each other at the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueEmail } from '../../../test/helpers';
import { createAuditRepo } from '../admin/audit.repo';
import { applyAdminEmails } from './roles';
import { createUsersRepo, type UsersRepo } from './users.repo';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let users: UsersRepo;
beforeAll(async () => {
  database = await createTestDatabase();
  users = createUsersRepo(database.db);
});
afterAll(async () => database.drop());

const account = async (role: 'admin' | 'member' = 'member') => users.create({ email: uniqueEmail(role), passwordHash: 'x', firstLogin: false, role });
const roleOf = async (id: number) => (await users.findById(id))!.role;
const activeOf = async (id: number) => (await users.findById(id))!.isActive;

describe('roles', () => {
  it('makes every account a member unless it is created as an admin', async () => {
    const member = await users.create({ email: uniqueEmail(), passwordHash: 'x', firstLogin: true });
    expect(member.role).toBe('member');
    expect((await account('admin')).role).toBe('admin');
  });

  it('keeps the last active admin: no demotion, no deactivation; with a second admin, either', async () => {
    // A database of its own: the other tests' admins would count.
    const own = await createTestDatabase();
    try {
      const repo = createUsersRepo(own.db);
      const first = await repo.create({ email: uniqueEmail('first'), passwordHash: 'x', firstLogin: false, role: 'admin' });
      const member = await repo.create({ email: uniqueEmail('member'), passwordHash: 'x', firstLogin: false });
      expect(await repo.setRole(first.id, 'member')).toBe('last-admin');
      expect(await repo.setActive(first.id, false)).toBe('last-admin');
      expect((await repo.findById(first.id))!).toMatchObject({ role: 'admin', isActive: true });
      // Members come and go whatever the admins are.
      expect(await repo.setActive(member.id, false)).toBe('ok');
      expect(await repo.setActive(member.id, true)).toBe('ok');
      expect(await repo.setRole(first.id, 'admin')).toBe('ok');

      expect(await repo.setRole(member.id, 'admin')).toBe('ok');
      expect(await repo.setActive(first.id, false)).toBe('ok');
      // A deactivated admin does not count: the other one is the last active admin now.
      expect(await repo.setRole(member.id, 'member')).toBe('last-admin');
      expect(await repo.setActive(first.id, true)).toBe('ok');
      expect(await repo.setRole(member.id, 'member')).toBe('ok');
      expect((await repo.findById(member.id))!.role).toBe('member');
    } finally {
      await own.drop();
    }
  });

  it('lets only one of two admins demoting each other at once succeed', async () => {
    const own = await createTestDatabase();
    try {
      const repo = createUsersRepo(own.db);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const a = await repo.create({ email: uniqueEmail('a'), passwordHash: 'x', firstLogin: false, role: 'admin' });
        const b = await repo.create({ email: uniqueEmail('b'), passwordHash: 'x', firstLogin: false, role: 'admin' });
        const outcomes = await Promise.all([repo.setRole(a.id, 'member'), repo.setActive(b.id, false)]);
        expect(outcomes.sort()).toEqual(['last-admin', 'ok']);
        // Back to no admin for the next attempt: the one left is demoted by hand (its row only).
        const left = (await repo.findById(a.id))!.role === 'admin' ? a : b;
        await own.pool.query(`update users set role = 'member' where id = $1`, [left.id]);
      }
    } finally {
      await own.drop();
    }
  });
});

describe('applyAdminEmails', () => {
  it('makes the named accounts admins, once, and reports an address with no account', async () => {
    const alice = await account();
    const bob = await account();
    const missing = uniqueEmail('missing');
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(`info ${line}`), warn: (line: string) => lines.push(`warn ${line}`) };
    await applyAdminEmails(users, [alice.email, missing], log, createAuditRepo(database.db));
    expect(await roleOf(alice.id)).toBe('admin');
    // Written to the audit log as ADMIN_EMAILS's doing.
    const [entry] = (await createAuditRepo(database.db).page({ limit: 1 })).rows;
    expect(entry).toMatchObject({ actor: 'ADMIN_EMAILS', action: 'set-role', target: alice.email, targetUserId: alice.id, detail: { from: 'member', to: 'admin' }, address: '' });
    expect(await roleOf(bob.id)).toBe('member');
    expect(lines).toEqual([`info ${alice.email} is an admin now (ADMIN_EMAILS)`, `warn ADMIN_EMAILS names ${missing}, which has no account: create it with \`npm run user -- add ${missing} --admin\``]);
    lines.length = 0;
    await applyAdminEmails(users, [alice.email], log);
    expect(lines).toEqual([]);
    expect(await activeOf(alice.id)).toBe(true);
  });
});
