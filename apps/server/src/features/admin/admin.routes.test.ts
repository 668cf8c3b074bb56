/**
 * Administration (issue 28; docs/accounts.md): every admin call is guarded on the server (a member's
 * token gets 403 with a msg), each action works and is written to the audit log, which the database
 * itself keeps append-only.
 */
import { readFileSync } from 'node:fs';
import { adminEndpoints, CSV_BOM, parseCsv } from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns, outboxEmails, users } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ADMINS_ONLY_MSG } from './admin.routes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '50', LOGIN_MAX_PER_ADDRESS: '500', FORGOT_PASSWORD_MAX_PER_EMAIL: '20' });
});
afterAll(async () => t.close());

type Headers = { authorization: string };

async function account(label: string, role: 'admin' | 'member' = 'member') {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'the password');
  if (role === 'admin') await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  return { email, id, headers: await login(t.app, email, 'the password') };
}
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { ...headers, 'x-forwarded-for': '198.51.100.23' }, remoteAddress: '198.51.100.23', ...(payload ? { payload } : {}) });
const status = async (headers: Headers) => (await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).statusCode;

describe('the admin guard', () => {
  it("answers a member's token 403 with a msg on every admin call, changing nothing", async () => {
    const member = await account('member');
    const victim = await account('victim');
    const ops = Object.values(adminEndpoints);
    expect(ops.length).toBeGreaterThanOrEqual(7);
    for (const op of ops) {
      const body = op.method === 'post' ? { user_id: victim.id, role: 'admin', active: false } : undefined;
      const answer = await call(op.method === 'get' ? 'GET' : 'POST', op.path, member.headers, body);
      expect([answer.statusCode, answer.json()], op.path).toEqual([403, { msg: ADMINS_ONLY_MSG }]);
    }
    expect(await status(victim.headers)).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, victim.id));
    expect([row!.role, row!.isActive]).toEqual(['member', true]);
  });
});

describe('admin actions', () => {
  it('lists the accounts with role, state, last sign-in, sessions in use and which one is you', async () => {
    const admin = await account('lister', 'admin');
    const member = await account('listed');
    await login(t.app, member.email, 'the password');
    const answer = await call('GET', '/api/admin/users', admin.headers);
    expect(answer.statusCode).toBe(200);
    const byEmail = new Map((answer.json().users as Array<Record<string, unknown>>).map((user) => [user.email, user]));
    expect(byEmail.get(admin.email)).toMatchObject({ role: 'admin', active: true, you: true, sessions: 1, two_factor: false, sign_in_methods: ['password'] });
    expect(byEmail.get(member.email)).toMatchObject({ id: member.id, role: 'member', active: true, you: false, sessions: 2, first_login: false });
    expect(byEmail.get(member.email)!.last_sign_in_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('promotes a member, whose open token may then administer; never demotes the last active admin', async () => {
    const { db } = t;
    await db.update(users).set({ role: 'member' }).where(eq(users.role, 'admin'));
    const admin = await account('only-admin', 'admin');
    const member = await account('promoted');
    expect((await call('GET', '/api/admin/users', member.headers)).statusCode).toBe(403);
    const promoted = await call('POST', '/api/admin/set_role', admin.headers, { user_id: member.id, role: 'admin' });
    expect([promoted.statusCode, promoted.json()]).toEqual([200, { msg: `${member.email} is an admin now.` }]);
    expect((await call('GET', '/api/admin/users', member.headers)).statusCode).toBe(200);
    // Two admins: one may step down; the last one may not.
    expect((await call('POST', '/api/admin/set_role', member.headers, { user_id: admin.id, role: 'member' })).statusCode).toBe(200);
    const refused = await call('POST', '/api/admin/set_role', member.headers, { user_id: member.id, role: 'member' });
    expect([refused.statusCode, refused.json()]).toEqual([409, { msg: "This is the installation's only active admin: make another account an admin first." }]);
    expect((await call('POST', '/api/admin/set_active', member.headers, { user_id: member.id, active: false })).statusCode).toBe(409);
    expect((await call('GET', '/api/admin/users', admin.headers)).statusCode).toBe(403);
  });

  it("deactivates an account (its sessions end at once), reactivates it, ends a user's sessions, e-mails a temporary password", async () => {
    const admin = await account('actor', 'admin');
    const member = await account('acted-on');
    const off = await call('POST', '/api/admin/set_active', admin.headers, { user_id: member.id, active: false });
    expect([off.statusCode, off.json()]).toEqual([200, { msg: `${member.email} is deactivated; 1 session ended.` }]);
    expect(await status(member.headers)).toBe(401);
    expect((await call('POST', '/api/admin/reset_password', admin.headers, { user_id: member.id })).json()).toEqual({ msg: `${member.email} is deactivated: reactivate the account first.` });
    expect((await call('POST', '/api/admin/set_active', admin.headers, { user_id: member.id, active: true })).json()).toEqual({ msg: `${member.email} is active again.` });

    const again = await login(t.app, member.email, 'the password');
    expect((await call('POST', '/api/admin/end_sessions', admin.headers, { user_id: member.id })).json()).toEqual({ msg: `Ended 1 session of ${member.email}.` });
    expect(await status(again)).toBe(401);

    const reset = await call('POST', '/api/admin/reset_password', admin.headers, { user_id: member.id });
    expect([reset.statusCode, reset.json()]).toEqual([200, { msg: `A temporary password is on its way to ${member.email} (valid one hour).` }]);
    const [mail] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, member.email));
    expect(readFileSync(mail!.emlPath, 'utf8')).toMatch(/^Temporary password: \S{14}$/m);

    for (const [url, payload] of [['/api/admin/set_role', { user_id: 987654, role: 'admin' }], ['/api/admin/end_sessions', { user_id: 987654 }]] as const) {
      expect((await call('POST', url, admin.headers, payload)).json()).toEqual({ msg: 'No account has this id.' });
    }
    expect((await call('POST', '/api/admin/set_role', admin.headers, { user_id: member.id, role: 'owner' })).json()).toEqual({ msg: 'Role must be admin or member' });
  });
});

describe('the audit log', () => {
  it('records who did what to whom, when and from where, newest first, pages back, and exports CSV', async () => {
    const admin = await account('auditor', 'admin');
    const member = await account('audited');
    await call('POST', '/api/admin/set_role', admin.headers, { user_id: member.id, role: 'admin' });
    await call('POST', '/api/admin/end_sessions', admin.headers, { user_id: member.id });
    const page = await call('GET', '/api/admin/audit?limit=2', admin.headers);
    expect(page.statusCode).toBe(200);
    const { entries, more } = page.json() as { entries: Array<Record<string, unknown>>; more: boolean };
    expect(entries.map((entry) => [entry.actor, entry.action, entry.target, entry.address])).toEqual([
      [admin.email, 'end-sessions', member.email, '198.51.100.23'],
      [admin.email, 'set-role', member.email, '198.51.100.23'],
    ]);
    expect(entries[1]!.detail).toEqual({ from: 'member', to: 'admin' });
    expect(entries[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const older = await call('GET', `/api/admin/audit?limit=2&before=${entries[1]!.id as number}`, admin.headers);
    expect((older.json().entries as Array<{ id: number }>).every((entry) => entry.id < (entries[1]!.id as number))).toBe(true);
    expect(more).toBe(older.json().entries.length > 0);

    const csv = await call('GET', '/api/admin/audit.csv', admin.headers);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/);
    expect(csv.body.startsWith(CSV_BOM)).toBe(true);
    const records = parseCsv(csv.body).map((record) => record.fields);
    expect(records[0]).toEqual(['id', 'at', 'actor', 'action', 'target', 'detail', 'address']);
    // Read back as a spreadsheet would: the second line is the set-role entry, its detail as JSON.
    const [id, at, actor, action, target, detail, address] = records[2]!;
    expect([Number(id), at, actor, action, target, address]).toEqual([entries[1]!.id, entries[1]!.at, admin.email, 'set-role', member.email, '198.51.100.23']);
    expect(JSON.parse(detail!)).toEqual({ from: 'member', to: 'admin' });
  });

  it('cannot be changed: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const admin = await account('tamperer', 'admin');
    const member = await account('tampered');
    await call('POST', '/api/admin/end_sessions', admin.headers, { user_id: member.id });
    for (const statement of ["update audit_log set actor = 'someone else'", 'delete from audit_log', 'truncate audit_log']) {
      await expect(t.pool.query(statement), statement).rejects.toThrow(/audit_log is append-only/);
    }
    const { rows } = await t.pool.query<{ n: number }>("select count(*)::int as n from audit_log where actor = 'someone else'");
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the installation', () => {
  it("answers the readiness checks with their details, the providers set up, and each job's newest run and success", async () => {
    const admin = await account('installer', 'admin');
    const started = new Date('2026-12-04T09:00:00.000Z');
    await t.db.insert(jobRuns).values([
      { job: 'dashboard-refresh', slot: new Date('2026-12-04T08:00:00Z'), status: 'done', startedAt: new Date('2026-12-04T08:00:00Z'), finishedAt: new Date('2026-12-04T08:00:05Z') },
      { job: 'dashboard-refresh', slot: started, status: 'failed', startedAt: started, finishedAt: new Date('2026-12-04T09:00:03Z'), error: 'provider answered 503' },
    ]);
    const answer = await call('GET', '/api/admin/installation', admin.headers);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const body = answer.json();
    expect(body).toMatchObject({ status: 'ready', market_data: { source: 'simulated' }, mail: 'outbox', sms: 'outbox', sign_up: 'closed', analyst: 'local' });
    expect(body.checks).toContainEqual(expect.objectContaining({ name: 'database', state: 'up', required: true, details: { kind: expect.any(String) } }));
    expect(body.checks).toContainEqual(expect.objectContaining({ name: 'mail', state: 'up', details: { kind: 'outbox' } }));
    expect(body.market_data.providers).toContainEqual({ name: 'Finnhub', configured: false });
    expect(body.jobs).toContainEqual({
      job: 'dashboard-refresh',
      status: 'failed',
      started_at: '2026-12-04T09:00:00.000Z',
      finished_at: '2026-12-04T09:00:03.000Z',
      error: 'provider answered 503',
      last_success_at: '2026-12-04T08:00:05.000Z',
    });
  });
});

describe('reset password', () => {
  it("counts against Forgot Password's per-e-mail limit (each is a mail to that address)", async () => {
    const admin = await account('resetter', 'admin');
    const member = await account('reset-often');
    // FORGOT_PASSWORD_MAX_PER_EMAIL is 20 in this app; one Forgot Password request of the member's own first.
    expect((await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: member.email } })).statusCode).toBe(200);
    for (let sent = 1; sent < 20; sent += 1) expect((await call('POST', '/api/admin/reset_password', admin.headers, { user_id: member.id })).statusCode).toBe(200);
    const refused = await call('POST', '/api/admin/reset_password', admin.headers, { user_id: member.id });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/^Too many password reset attempts\. Please try again in \d+ minutes\.$/);
  });
});
