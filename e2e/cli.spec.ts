/** The admin command line (npm run user -- …), with the server running and without it. */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, apiLogin, uniqueEmail } from './support/browser';
import { makeDataDir, runCli } from './support/server-process';
import { codeAtStep, keyFromBase32, stepAt } from './support/totp';

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await fs.rm(path.dirname(dir), { recursive: true, force: true });
});

describe('npm run user, while the server runs', () => {
  const dataDir = () => inject('dataDir');

  it('adds an account with a generated temporary password that must be changed', async () => {
    const email = uniqueEmail('cli');
    const added = runCli(dataDir(), ['add', email]);
    expect(added.status).toBe(0);
    const temporary = /temporary password: (\S+)/.exec(added.stdout)?.[1];
    expect(temporary).toBeDefined();
    const login = await apiLogin(email, temporary!);
    expect(login.first_login).toBe(true);

    const again = runCli(dataDir(), ['add', email, '--password', 'x']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`An account for ${email} already exists.`);

    const listed = runCli(dataDir(), ['list']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email.replace(/[.]/g, '\\.')}\\tmember, active, first-login`));
  });

  it('turns off the two-factor sign-in of an account that lost its phone, ending its sessions', async () => {
    const email = uniqueEmail('cli-2fa');
    expect(runCli(dataDir(), ['add', email, '--password', 'first password']).status).toBe(0);
    const first = await apiLogin(email, 'first password');
    expect((await api('update-password', { token: first.access_token, json: { new_password: 'a long new password' } })).status).toBe(200);
    await api('logout', { token: first.access_token, json: {} });
    const { access_token } = await apiLogin(email, 'a long new password');
    const setup = await api<{ manual_key: string }>('two_factor/setup', { token: access_token, json: {} });
    const code = codeAtStep(keyFromBase32(setup.body.manual_key), stepAt(Date.now()));
    expect((await api('two_factor/enable', { token: access_token, json: { code } })).status).toBe(200);
    expect((await api<{ two_factor_required?: boolean }>('login', { json: { email, password: 'a long new password' } })).body.two_factor_required).toBe(true);

    const reset = runCli(dataDir(), ['reset-two-factor', email]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toContain(`Two-factor sign-in of ${email} is off.`);
    expect(reset.stdout).toContain('Ended 1 session.');
    expect((await api('getemail', { token: access_token })).status).toBe(401);
    expect((await apiLogin(email, 'a long new password')).access_token).toEqual(expect.any(String));
  });

  it('resets a password and deactivates an account, whose tokens stop at once', async () => {
    const email = uniqueEmail('cli-reset');
    expect(runCli(dataDir(), ['add', email, '--password', 'first password']).status).toBe(0);
    const { access_token } = await apiLogin(email, 'first password');

    const reset = runCli(dataDir(), ['reset', email]);
    expect(reset.status).toBe(0);
    const temporary = /temporary password: (\S+)/.exec(reset.stdout)?.[1];
    // A reset ends the account's sessions: the token from before it is refused at once.
    expect(reset.stdout).toContain('Ended 1 session.');
    expect((await api('getemail', { token: access_token })).status).toBe(401);
    const afterReset = await apiLogin(email, temporary!);
    expect(afterReset.first_login).toBe(true);
    expect((await api('login', { json: { email, password: 'first password' } })).status).toBe(401);

    expect(runCli(dataDir(), ['deactivate', email]).status).toBe(0);
    expect((await api('getemail', { token: afterReset.access_token })).status).toBe(401);
    expect((await api('login', { json: { email, password: temporary } })).status).toBe(403);
    expect(runCli(dataDir(), ['list']).stdout).toMatch(new RegExp(`${email.replace(/[.]/g, '\\.')}\\tmember, deactivated`));
  });

  it('makes admins and members, writes each change to the audit log, and says when --admin is misplaced', async () => {
    const owner = uniqueEmail('cli-owner');
    const added = runCli(dataDir(), ['add', owner, '--admin', '--password', 'owner password']);
    expect(added.status).toBe(0);
    expect(added.stdout).toContain(`Created admin ${owner}`);
    const listed = (email: string) => runCli(dataDir(), ['list']).stdout.split('\n').find((line) => line.startsWith(`${email}\t`));
    expect(listed(owner)).toMatch(/\tadmin, active, first-login\t/);
    const member = uniqueEmail('cli-member');
    expect(runCli(dataDir(), ['add', member, '--password', 'member password']).status).toBe(0);
    const promoted = runCli(dataDir(), ['promote', member]);
    expect(promoted.status).toBe(0);
    expect(promoted.stdout).toContain(`${member} is an admin now.`);
    expect(listed(member)).toMatch(/\tadmin, active/);
    const demoted = runCli(dataDir(), ['demote', member]);
    expect(demoted.status).toBe(0);
    expect(demoted.stdout).toContain(`${member} is a member now.`);
    // The owner, past the first login, reads what the command line did in the audit log.
    const first = await apiLogin(owner, 'owner password');
    expect((await api('update-password', { token: first.access_token, json: { new_password: 'the owner password now' } })).status).toBe(200);
    const audit = await api<{ entries: Array<{ actor: string; action: string; target: string; detail: Record<string, unknown> }> }>('admin/audit', { token: first.access_token });
    expect(audit.status).toBe(200);
    expect(audit.body.entries.filter((entry) => entry.target === member).map(({ actor, action, detail }) => [actor, action, detail])).toEqual([
      ['command line', 'set-role', { from: 'admin', to: 'member' }],
      ['command line', 'set-role', { from: 'member', to: 'admin' }],
      ['command line', 'create', { role: 'member' }],
    ]);
    const wrongFlag = runCli(dataDir(), ['promote', member, '--admin']);
    expect(wrongFlag.status).toBe(2);
    expect(wrongFlag.stderr).toContain('--admin goes with add; to make an existing account an admin: npm run user -- promote <email>.');
  });

  it('explains bad input', () => {
    const unknown = runCli(dataDir(), ['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate".');
    expect(unknown.stderr).toContain('Usage: npm run user -- <command>');
    const badEmail = runCli(dataDir(), ['add', 'not-an-email']);
    expect(badEmail.status).toBe(1);
    expect(badEmail.stderr).toContain('Email must be an e-mail address');
    const missing = runCli(dataDir(), ['reset', 'nobody@example.com']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('No account for nobody@example.com.');
  });
});

describe('npm run user, with no server running', () => {
  it('starts the embedded database for the command and stops it after', async () => {
    const dataDir = await makeDataDir('cli-alone');
    cleanup.push(dataDir);
    const added = runCli(dataDir, ['add', 'solo@example.com', '--password', 'pw']);
    expect(added.status).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    const listed = runCli(dataDir, ['list']);
    expect(listed.stdout).toContain('solo@example.com\tmember, active, first-login');
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
