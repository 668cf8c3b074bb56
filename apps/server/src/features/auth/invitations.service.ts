/**
 * Invitations and sign-up (issue 28; docs/accounts.md). An admin invites an e-mail, or with
 * SIGNUP=open a visitor asks for an account: either way the address gets a single-use link, valid
 * INVITATION_TTL_SECONDS (72 hours), to a screen where its owner chooses a password. So an account is
 * only ever made for an address whose owner read the mail, and that first password is their own (no
 * first-login change). HTTP-free: invitations.routes.ts translates.
 */
import { randomBytes } from 'node:crypto';
import { INVITATION_TTL_SECONDS, type AdminInvitation, type UserRoleValue } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import type { Mailer } from '../../providers/mail';
import type { AuditRepo } from '../admin/audit.repo';
import type { ProviderAccount } from '../oidc/oidc.repo';
import { newInvitationToken, type InvitationRow, type InvitationsRepo } from './invitations.repo';
import { newPasswordProblem } from './password-policy';
import type { UsersRepo } from './users.repo';

/** Invitations and resends one admin may send an hour (each is a mail to someone else's address). */
export const INVITATIONS_MAX_PER_ADMIN = 50;
export const INVITATION_INVALID_MSG = 'This link no longer works: it has expired, been used or been revoked. Ask for a new one.';
export const NO_SUCH_INVITATION_MSG = 'No pending invitation has this id (it may have been accepted or revoked).';
export const SIGN_UP_CLOSED_MSG = 'Sign-up is closed on this installation: ask its admin for an invitation.';
export const SIGN_UP_SENT_MSG = 'Check your e-mail: a link to create your account is on its way.';
export const ACCOUNT_EXISTS_ON_ACCEPT_MSG = 'An account with this e-mail exists already: sign in instead.';
/** Accepting with single sign-on a provider account that is linked to another user already. */
export const IDENTITY_TAKEN_MSG = 'That sign-in account is linked to another Signalboard account already.';
export const INVITE_MAIL_FAILED_MSG = 'The invitation e-mail could not be sent: the mail service is unavailable. Nothing was saved; please try again later.';
export const RESEND_MAIL_FAILED_MSG = 'The invitation e-mail could not be sent: the mail service is unavailable. The earlier link no longer works; resend it when mail works again.';

export interface InvitationsServiceDeps {
  invitations: InvitationsRepo;
  users: Pick<UsersRepo, 'findByEmail'>;
  audit: AuditRepo;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
  /** The base of the links (config PUBLIC_URL). */
  publicUrl: string;
}

type Admin = { id: number; email: string; address: string };

/** The link an invitation's mail carries: the token after `#`, so it never reaches a server's or proxy's log, nor a Referer. */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invite#${token}`;

export function createInvitationsService({ invitations, users, audit, mailer, clock, publicUrl }: InvitationsServiceDeps) {
  const now = () => new Date(clock.nowMs());
  const expiry = (at: Date) => new Date(at.getTime() + INVITATION_TTL_SECONDS * 1000);

  function mailInvitation(invitation: Pick<InvitationRow, 'email' | 'source'>, token: string, expiresAt: Date, invitedBy: string | null) {
    const link = invitationLink(publicUrl, token);
    const opening =
      invitation.source === 'sign-up'
        ? ['Someone (we hope you) asked for a Signalboard account with this e-mail address.', '', 'To create it, choose your password here:']
        : [`${invitedBy ?? 'An admin'} invited you to Signalboard, the market scanner of this installation (${publicUrl}).`, '', 'To accept, choose your password here:'];
    return mailer.send({
      to: invitation.email,
      subject: invitation.source === 'sign-up' ? 'Create your Signalboard account' : 'You are invited to Signalboard',
      text: [
        ...opening,
        link,
        '',
        `The link works once, for 72 hours, until ${expiresAt.toUTCString()}.`,
        '',
        'If you did not expect this, ignore this message: no account is made unless the link is used.',
      ].join('\n'),
      secrets: [token],
    });
  }

  async function openInvitation(id: number): Promise<InvitationRow> {
    const invitation = await invitations.findOpenById(id);
    if (!invitation) throw new HttpError(404, NO_SUCH_INVITATION_MSG);
    return invitation;
  }

  /** An open, unexpired invitation for `token`, else 404 with the one message (which of the reasons is nobody's business). */
  async function acceptWith(token: string, passwordHash: string, address: string, link?: ProviderAccount): Promise<{ userId: number; email: string }> {
    const result = await invitations.accept(token, { passwordHash, now: now(), ...(link ? { link } : {}) });
    if (!result.ok) {
      if (result.reason === 'invalid') throw new HttpError(404, INVITATION_INVALID_MSG);
      throw result.reason === 'identity-taken' ? new HttpError(409, IDENTITY_TAKEN_MSG) : new HttpError(409, ACCOUNT_EXISTS_ON_ACCEPT_MSG);
    }
    const { invitation, userId } = result;
    await audit.record(
      { userId, email: invitation.email, address },
      { action: 'accept-invitation', target: { id: userId, email: invitation.email }, detail: { source: invitation.source, role: invitation.role, ...(link ? { sign_in: 'oidc' } : {}) } },
    );
    return { userId, email: invitation.email };
  }

  async function usable(token: string): Promise<InvitationRow> {
    const invitation = await invitations.findOpenByToken(token);
    if (!invitation || invitation.expiresAt.getTime() <= clock.nowMs()) throw new HttpError(404, INVITATION_INVALID_MSG);
    return invitation;
  }

  return {
    async listOpen(): Promise<AdminInvitation[]> {
      const at = clock.nowMs();
      return (await invitations.listOpen()).map((row) => ({
        id: row.id,
        email: row.email,
        role: row.role,
        source: row.source,
        invited_by: row.invitedByEmail,
        created_at: row.createdAt.toISOString(),
        sent_at: row.sentAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        expired: row.expiresAt.getTime() <= at,
      }));
    },

    async invite(admin: Admin, email: string, role: UserRoleValue): Promise<string> {
      if (await users.findByEmail(email)) throw new HttpError(409, `${email} already has an account.`);
      const token = newInvitationToken();
      const at = now();
      const invitation = await invitations.create({ email, role, source: 'admin', invitedBy: admin.id, token, now: at, expiresAt: expiry(at) });
      if (!invitation) throw new HttpError(409, `An invitation to ${email} is pending already: resend it from the list.`);
      try {
        await mailInvitation(invitation, token, invitation.expiresAt, admin.email);
      } catch {
        await invitations.revoke(invitation.id, now());
        throw new HttpError(502, INVITE_MAIL_FAILED_MSG);
      }
      await audit.record({ userId: admin.id, email: admin.email, address: admin.address }, { action: 'invite', target: { email }, detail: { role } });
      return `Invitation sent to ${email} (valid 72 hours).`;
    },

    async resend(admin: Admin, id: number): Promise<string> {
      const invitation = await openInvitation(id);
      if (await users.findByEmail(invitation.email)) throw new HttpError(409, `${invitation.email} already has an account: revoke this invitation.`);
      const token = newInvitationToken();
      const at = now();
      if (!(await invitations.renew(id, token, at, expiry(at)))) throw new HttpError(404, NO_SUCH_INVITATION_MSG);
      try {
        await mailInvitation({ ...invitation, source: 'admin' }, token, expiry(at), admin.email);
      } catch {
        throw new HttpError(502, RESEND_MAIL_FAILED_MSG);
      }
      await audit.record({ userId: admin.id, email: admin.email, address: admin.address }, { action: 'resend-invitation', target: { email: invitation.email } });
      return `Invitation sent to ${invitation.email} again (valid 72 hours; the earlier link no longer works).`;
    },

    async revoke(admin: Admin, id: number): Promise<string> {
      const invitation = await openInvitation(id);
      if (!(await invitations.revoke(id, now()))) throw new HttpError(404, NO_SUCH_INVITATION_MSG);
      await audit.record({ userId: admin.id, email: admin.email, address: admin.address }, { action: 'revoke-invitation', target: { email: invitation.email } });
      return `The invitation to ${invitation.email} is revoked: its link no longer works.`;
    },

    /** What a link is for, before its invitee chooses a password. */
    async describe(token: string): Promise<{ email: string; expires_at: string }> {
      const invitation = await usable(token);
      return { email: invitation.email, expires_at: invitation.expiresAt.toISOString() };
    },

    /**
     * Creates the invited account with the password its owner chose (the password rules apply) and
     * marks the link used; answers the new account for the caller to sign in.
     */
    async accept(token: string, password: string, address: string, options: { membersRefused?: string } = {}): Promise<{ userId: number; email: string }> {
      const problem = newPasswordProblem(password);
      if (problem) throw new HttpError(400, problem.replace(/^New password/, 'Password'));
      const invitation = await usable(token); // before hashing: a dead link costs no argon2 run
      // OIDC_ONLY: a member's account is created with single sign-on (acceptWithProvider), never a password.
      if (options.membersRefused !== undefined && invitation.role !== 'admin') throw new HttpError(403, options.membersRefused);
      return acceptWith(token, await hashPassword(password), address);
    },

    /**
     * Accepts with single sign-on (features/oidc): the account is created linked to `account`, with a
     * password nobody knows (Forgot Password gives one). 409 `identity-taken` when that provider
     * account is another user's already.
     */
    async acceptWithProvider(token: string, account: ProviderAccount, address: string): Promise<{ userId: number; email: string; role: UserRoleValue }> {
      const invitation = await usable(token);
      const { userId, email } = await acceptWith(token, await hashPassword(randomBytes(32).toString('base64url')), address, account);
      return { userId, email, role: invitation.role };
    },

    /**
     * SIGNUP=open: e-mails a link to create an account. An address with an account gets a mail saying
     * so (sign in, or Forgot Password); one with a pending invitation gets it again with a new link.
     * Runs after the answer, which says the same in every case (nothing tells a visitor who has an account).
     */
    async signUp(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (user) {
        await mailer.send({
          to: user.email,
          subject: 'Your Signalboard account',
          text: [
            'Someone (we hope you) asked to create a Signalboard account with this e-mail address, which has one already.',
            '',
            `Sign in at ${publicUrl}/login. If you forgot your password, use "Forgot Password?" there.`,
            '',
            'If you did not ask for this, ignore this message.',
          ].join('\n'),
        });
        return;
      }
      const token = newInvitationToken();
      const at = now();
      const pending = await invitations.findOpenByEmail(email);
      if (pending) {
        if (await invitations.renew(pending.id, token, at, expiry(at))) await mailInvitation(pending, token, expiry(at), null);
        return;
      }
      const created = await invitations.create({ email, role: 'member', source: 'sign-up', invitedBy: null, token, now: at, expiresAt: expiry(at) });
      if (created) await mailInvitation(created, token, created.expiresAt, null);
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
