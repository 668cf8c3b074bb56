/**
 * Invitations and sign-up (issue 28; docs/accounts.md): an admin invites, the invitee's link (single
 * use, 72 hours) creates the account with the password they choose and signs it in; resend replaces
 * the link, revoke kills it; with SIGNUP=open a visitor gets the same kind of link by e-mail, and the
 * answer never says whether the address has an account.
 */
import { INVITATION_TTL_SECONDS } from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invitations, users } from '../../db/schema';
import type { Mailer } from '../../providers/mail';
import { createTestApp, createUser, lastMailTo, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { TWO_FACTOR_SETUP_REQUIRED_MSG } from '../../plugins/authenticate';
import { INVITATION_INVALID_MSG, INVITATIONS_MAX_PER_ADMIN, INVITE_MAIL_FAILED_MSG, SIGN_UP_CLOSED_MSG, SIGN_UP_SENT_MSG } from './invitations.service';

let t: TestApp;
let failMail = false;
const failing = (mailer: Mailer): Mailer => ({
  kind: mailer.kind,
  send: async (message) => {
    if (failMail) throw new Error('SMTP down');
    return mailer.send(message);
  },
  close: () => mailer.close(),
});
beforeAll(async () => {
  t = await createTestApp({ SIGNUP: 'open', PUBLIC_URL: 'https://signals.example.com', LOGIN_MAX_PER_ADDRESS: '500', FORGOT_PASSWORD_MAX_PER_EMAIL: '20', FORGOT_PASSWORD_MAX_PER_ADDRESS: '200' }, { wrapMailer: failing });
});
afterAll(async () => t.close());

type Headers = { authorization: string };
const call = (method: 'GET' | 'POST', url: string, headers: Partial<Headers>, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { ...headers, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' }, remoteAddress: '198.51.100.40', ...(payload ? { payload } : {}) });
async function admin() {
  const email = uniqueEmail('inviter');
  const id = await createUser(t.db, email, 'the password');
  await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  return { email, id, headers: await login(t.app, email, 'the password') };
}
/** The link of the newest mail to `email`, read from the delivered .eml (the outbox row keeps it masked). */
async function linkTo(email: string): Promise<{ token: string; subject: string; text: string; row: string }> {
  const mail = await lastMailTo(t, email);
  const match = /https:\/\/signals\.example\.com\/invite#([\w-]+)/.exec(mail.text);
  return { token: match?.[1] ?? '', ...mail };
}
const STRONG = 'correct horse battery staple';

describe('admin invitations', () => {
  it('invites; the link shows its e-mail, creates the account with the chosen password, signs in, and works once', async () => {
    const boss = await admin();
    const email = uniqueEmail('invitee');
    const sent = await call('POST', '/api/admin/invite', boss.headers, { email: email.toUpperCase(), role: 'member' });
    expect([sent.statusCode, sent.json()]).toEqual([200, { msg: `Invitation sent to ${email} (valid 72 hours).` }]);
    const mail = await linkTo(email);
    expect(mail.subject).toBe('You are invited to Signalboard');
    expect(mail.text).toContain(`${boss.email} invited you`);
    expect(mail.token).toMatch(/^[\w-]{43}$/);
    expect(mail.row).not.toContain(mail.token); // the kept record masks the link's secret
    const [stored] = await t.db.select().from(invitations).where(eq(invitations.email, email));
    expect(stored!.tokenHash).not.toContain(mail.token);

    const listed = await call('GET', '/api/admin/invitations', boss.headers);
    expect(listed.json().invitations).toContainEqual(expect.objectContaining({ email, role: 'member', source: 'admin', invited_by: boss.email, expired: false }));

    const seen = await call('POST', '/api/invitation', {}, { token: mail.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ email, expires_at: new Date(t.clock.nowMs() + INVITATION_TTL_SECONDS * 1000).toISOString() });

    const weak = await call('POST', '/api/accept_invitation', {}, { token: mail.token, password: 'short' });
    expect([weak.statusCode, weak.json().msg]).toEqual([400, 'Password must be at least 10 characters']);
    const common = await call('POST', '/api/accept_invitation', {}, { token: mail.token, password: 'password123' });
    expect(common.json().msg).toBe('Password is one of the most common passwords: please choose another');

    const accepted = await call('POST', '/api/accept_invitation', {}, { token: mail.token, password: STRONG });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ access_token: expect.any(String), first_login: false });
    const me = await call('GET', '/api/getemail', { authorization: `Bearer ${accepted.json().access_token}` });
    expect(me.json()).toEqual({ email, role: 'member' });
    expect((await call('POST', '/api/login', {}, { email, password: STRONG })).json().first_login).toBe(false);

    const again = await call('POST', '/api/accept_invitation', {}, { token: mail.token, password: 'another long password' });
    expect([again.statusCode, again.json()]).toEqual([404, { msg: INVITATION_INVALID_MSG }]);
    expect((await call('GET', '/api/admin/invitations', boss.headers)).json().invitations.map((i: { email: string }) => i.email)).not.toContain(email);

    const actions = await t.db.select().from(auditLog).where(eq(auditLog.target, email)).orderBy(auditLog.id);
    expect(actions.map((row) => [row.actor, row.action])).toEqual([
      [boss.email, 'invite'],
      [email, 'accept-invitation'],
    ]);
  });

  it('refuses an address with an account or a pending invitation; an admin invite makes an admin', async () => {
    const boss = await admin();
    const taken = await call('POST', '/api/admin/invite', boss.headers, { email: boss.email });
    expect([taken.statusCode, taken.json()]).toEqual([409, { msg: `${boss.email} already has an account.` }]);
    const email = uniqueEmail('second-admin');
    expect((await call('POST', '/api/admin/invite', boss.headers, { email, role: 'admin' })).statusCode).toBe(200);
    const twice = await call('POST', '/api/admin/invite', boss.headers, { email });
    expect([twice.statusCode, twice.json().msg]).toEqual([409, `An invitation to ${email} is pending already: resend it from the list.`]);
    const bad = await call('POST', '/api/admin/invite', boss.headers, { email: 'not an address' });
    expect([bad.statusCode, bad.json().msg]).toEqual([400, 'Email must be an e-mail address']);
    const accepted = await call('POST', '/api/accept_invitation', {}, { token: (await linkTo(email)).token, password: STRONG });
    const me = await call('GET', '/api/getemail', { authorization: `Bearer ${accepted.json().access_token}` });
    expect(me.json().role).toBe('admin');
  });

  it('resend replaces the link (the old one stops working, the expiry starts again); revoke kills it', async () => {
    const boss = await admin();
    const email = uniqueEmail('resent');
    await call('POST', '/api/admin/invite', boss.headers, { email });
    const first = (await linkTo(email)).token;
    const [row] = await t.db.select().from(invitations).where(eq(invitations.email, email));
    t.clock.advance(INVITATION_TTL_SECONDS * 1000 + 1000);
    const expired = await call('POST', '/api/invitation', {}, { token: first });
    expect([expired.statusCode, expired.json()]).toEqual([404, { msg: INVITATION_INVALID_MSG }]);
    expect((await call('GET', '/api/admin/invitations', boss.headers)).json().invitations).toContainEqual(expect.objectContaining({ id: row!.id, expired: true }));

    const resent = await call('POST', '/api/admin/resend_invitation', boss.headers, { invitation_id: row!.id });
    expect(resent.json().msg).toBe(`Invitation sent to ${email} again (valid 72 hours; the earlier link no longer works).`);
    const second = (await linkTo(email)).token;
    expect(second).not.toBe(first);
    expect((await call('POST', '/api/invitation', {}, { token: first })).statusCode).toBe(404);
    expect((await call('POST', '/api/invitation', {}, { token: second })).statusCode).toBe(200);

    const revoked = await call('POST', '/api/admin/revoke_invitation', boss.headers, { invitation_id: row!.id });
    expect(revoked.json().msg).toBe(`The invitation to ${email} is revoked: its link no longer works.`);
    expect((await call('POST', '/api/accept_invitation', {}, { token: second, password: STRONG })).statusCode).toBe(404);
    const gone = await call('POST', '/api/admin/revoke_invitation', boss.headers, { invitation_id: row!.id });
    expect(gone.statusCode).toBe(404);
    expect((await t.db.select().from(users).where(eq(users.email, email))).length).toBe(0);
    const actions = await t.db.select().from(auditLog).where(eq(auditLog.target, email)).orderBy(auditLog.id);
    expect(actions.map((entry) => entry.action)).toEqual(['invite', 'resend-invitation', 'revoke-invitation']);
  });

  it('saves nothing when the invitation mail cannot be sent', async () => {
    const boss = await admin();
    const email = uniqueEmail('unmailable');
    failMail = true;
    try {
      const answer = await call('POST', '/api/admin/invite', boss.headers, { email });
      expect([answer.statusCode, answer.json()]).toEqual([502, { msg: INVITE_MAIL_FAILED_MSG }]);
    } finally {
      failMail = false;
    }
    expect((await call('GET', '/api/admin/invitations', boss.headers)).json().invitations.map((i: { email: string }) => i.email)).not.toContain(email);
    expect((await call('POST', '/api/admin/invite', boss.headers, { email })).statusCode).toBe(200);
  });

  it('one link, two submissions at once: one account, one refusal', async () => {
    const boss = await admin();
    const email = uniqueEmail('racer');
    await call('POST', '/api/admin/invite', boss.headers, { email });
    const { token } = await linkTo(email);
    const answers = await Promise.all([1, 2].map(() => call('POST', '/api/accept_invitation', {}, { token, password: STRONG })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
    expect((await t.db.select().from(users).where(eq(users.email, email))).length).toBe(1);
  });

  it('answers a malformed or unknown token with a msg, never a 500', async () => {
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(500) }, { token: 'nope' }, { token: 42 }]) {
      const answer = await call('POST', '/api/invitation', {}, body);
      expect([400, 404]).toContain(answer.statusCode);
      expect(answer.json().msg).toEqual(expect.any(String));
    }
  });
});

describe('how many invitations an admin sends', () => {
  it('at most INVITATIONS_MAX_PER_ADMIN an hour, resends included; another admin is not held back', async () => {
    const busy = await admin();
    const email = uniqueEmail('many');
    expect((await call('POST', '/api/admin/invite', busy.headers, { email })).statusCode).toBe(200);
    const [row] = await t.db.select().from(invitations).where(eq(invitations.email, email));
    for (let sent = 1; sent < INVITATIONS_MAX_PER_ADMIN; sent += 1) {
      expect((await call('POST', '/api/admin/resend_invitation', busy.headers, { invitation_id: row!.id })).statusCode).toBe(200);
    }
    const refused = await call('POST', '/api/admin/invite', busy.headers, { email: uniqueEmail('one-more') });
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ msg: string }>().msg).toMatch(/^Too many invitations \(at most 50 every hour\)\. Please try again in /);
    expect(refused.headers['retry-after']).toBeDefined();
    const other = await admin();
    expect((await call('POST', '/api/admin/invite', other.headers, { email: uniqueEmail('other-admin') })).statusCode).toBe(200);
  });
});

describe('sign-up (SIGNUP=open)', () => {
  it('says so in the sign-in options; mails a link to a new address and a note to a known one, answering the same', async () => {
    expect((await call('GET', '/api/sign_in_options', {})).json()).toEqual({ sign_up: true, single_sign_on: null, password_form: 'everyone' });
    const fresh = uniqueEmail('visitor');
    const known = uniqueEmail('known');
    await createUser(t.db, known, 'the password');
    const a = await call('POST', '/api/sign_up', {}, { email: fresh });
    const b = await call('POST', '/api/sign_up', {}, { email: known });
    expect([a.statusCode, a.json()]).toEqual([200, { msg: SIGN_UP_SENT_MSG }]);
    expect([b.statusCode, b.json()]).toEqual([200, { msg: SIGN_UP_SENT_MSG }]);
    const link = await linkTo(fresh);
    expect(link.subject).toBe('Create your Signalboard account');
    const note = await linkTo(known);
    expect([note.subject, note.token]).toEqual(['Your Signalboard account', '']);
    expect(note.text).toContain('https://signals.example.com/login');

    // Asking again sends a new link to the same pending request; the first stops working.
    await call('POST', '/api/sign_up', {}, { email: fresh });
    const second = await linkTo(fresh);
    expect(second.token).not.toBe(link.token);
    expect((await call('POST', '/api/invitation', {}, { token: link.token })).statusCode).toBe(404);
    const accepted = await call('POST', '/api/accept_invitation', {}, { token: second.token, password: STRONG });
    expect(accepted.statusCode).toBe(200);
    const me = await call('GET', '/api/getemail', { authorization: `Bearer ${accepted.json().access_token}` });
    expect(me.json()).toEqual({ email: fresh, role: 'member' });
  });
});

describe('sign-up closed (the default)', () => {
  it('answers 403 with a msg and the options say so', async () => {
    const closed = await createTestApp();
    try {
      expect((await closed.app.inject({ method: 'GET', url: '/api/sign_in_options' })).json()).toEqual({ sign_up: false, single_sign_on: null, password_form: 'everyone' });
      const answer = await closed.app.inject({ method: 'POST', url: '/api/sign_up', payload: { email: uniqueEmail('stranger') } });
      expect([answer.statusCode, answer.json()]).toEqual([403, { msg: SIGN_UP_CLOSED_MSG }]);
    } finally {
      await closed.close();
    }
  });
});

describe('an invitation accepted while the installation requires two-factor', () => {
  it('signs the new account in to turn two-factor on first, as a password sign-in would', async () => {
    const boss = await admin();
    const email = uniqueEmail('required-2fa');
    await call('POST', '/api/admin/invite', boss.headers, { email });
    const { token } = await linkTo(email);
    expect((await call('POST', '/api/admin/require_two_factor', boss.headers, { required: true })).statusCode).toBe(200);
    try {
      const accepted = await call('POST', '/api/accept_invitation', {}, { token, password: STRONG });
      const headers = { authorization: `Bearer ${accepted.json().access_token}` };
      const refused = await call('GET', '/api/get_favorite_stocks', headers);
      expect([refused.statusCode, refused.json()]).toEqual([403, { msg: TWO_FACTOR_SETUP_REQUIRED_MSG, code: 'two_factor_setup_required' }]);
      expect((await call('GET', '/api/getemail', headers)).statusCode).toBe(200);
    } finally {
      expect((await call('POST', '/api/admin/require_two_factor', boss.headers, { required: false })).statusCode).toBe(200);
    }
  });
});
