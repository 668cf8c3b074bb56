import { TEMPORARY_PASSWORD_TTL_SECONDS } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import { decoyPasswordHash, generateTemporaryPassword, hashPassword, verifyPassword } from '../../lib/password';
import type { Mailer } from '../../providers/mail';
import { newPasswordProblem } from './password-policy';
import type { SessionEndReason, SessionsRepo } from './sessions.repo';
import { describeUserAgent } from './user-agent';
import type { UserRole } from '../../db/tables/users';
import type { UsersRepo } from './users.repo';

export const INVALID_CREDENTIALS_MSG = 'Invalid email or password';
export const DEACTIVATED_MSG = 'This account has been deactivated. Contact support to restore it.';
export const SESSION_NOT_FOUND_MSG = 'No session of yours with this id is in use (it may have ended already).';
export const CURRENT_PASSWORD_REQUIRED_MSG = 'Current password is required';
export const CURRENT_PASSWORD_WRONG_MSG = 'Current password is incorrect';
/** api/deactivate_user by the installation's only active admin (issue 28: an installation keeps one). */
export const LAST_ADMIN_MSG = "You are this installation's only admin: make another account an admin before deactivating this one.";

/** How sign-in checks a password against a stored hash (tests count the calls). */
export interface PasswordVerifier {
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** A hash of nothing anyone knows, checked in place of a hash the account lacks. */
  decoyHash(): Promise<string>;
}

export interface AuthServiceDeps {
  users: UsersRepo;
  sessions: SessionsRepo;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
  passwords?: PasswordVerifier;
}

/** Sign-in, password changes and temporary passwords. HTTP-free: routes translate. */
export function createAuthService({ users, sessions, mailer, clock, passwords = { verify: verifyPassword, decoyHash: decoyPasswordHash } }: AuthServiceDeps) {
  return {
    /**
     * Checks the credentials. A valid, unexpired temporary password becomes the account's
     * password on use (the old one stops working then) and marks the account first-login.
     * Every attempt verifies exactly two argon2 hashes, the password's and the temporary one's, the
     * decoy standing in for whichever is missing (an unknown e-mail, no usable temporary password),
     * so how long a refusal takes tells nothing about the account or a pending reset.
     */
    async authenticate(email: string, password: string): Promise<{ userId: number; firstLogin: boolean; role: UserRole }> {
      const user = await users.findByEmail(email);
      const decoy = await passwords.decoyHash();
      const tempHash =
        user?.tempPasswordHash && user.tempPasswordExpiresAt && user.tempPasswordExpiresAt.getTime() > clock.nowMs() ? user.tempPasswordHash : undefined;
      const passwordMatches = await passwords.verify(user?.passwordHash ?? decoy, password);
      const tempMatches = await passwords.verify(tempHash ?? decoy, password);
      if (!user || !(passwordMatches || (tempHash !== undefined && tempMatches))) throw new HttpError(401, INVALID_CREDENTIALS_MSG);
      let firstLogin = user.firstLogin;
      if (!passwordMatches) {
        if (user.isActive) await users.setPassword(user.id, tempHash!, true);
        firstLogin = true;
      }
      if (!user.isActive) throw new HttpError(403, DEACTIVATED_MSG);
      return { userId: user.id, firstLogin, role: user.role };
    },

    /**
     * Records a sign-in (docs/accounts.md): its id goes into the access token as `sid`. A first-login
     * sign-in (a temporary or initial password) is restricted until the password is changed; one
     * without two-factor while the installation requires it, until two-factor is on.
     */
    async startSession(input: { userId: number; firstLogin: boolean; needsTwoFactor?: boolean; ttlSeconds: number; userAgent: string; address: string }): Promise<string> {
      const now = clock.nowMs();
      return sessions.create({
        userId: input.userId,
        restricted: input.firstLogin,
        needsTwoFactor: input.needsTwoFactor ?? false,
        expiresAt: new Date(now + input.ttlSeconds * 1000),
        userAgent: input.userAgent,
        address: input.address,
        now: new Date(now),
      });
    },

    /**
     * Sets a password the user chose. Outside the first login (a temporary or initial password) it
     * asks for the current one; refusals are 400s (a 401 would sign the web app out). The session
     * that changed it may do everything from then on; every other session of the user ends.
     */
    async updatePassword(userId: number, sessionId: string, newPassword: string, currentPassword: string | undefined): Promise<void> {
      const problem = newPasswordProblem(newPassword);
      if (problem) throw new HttpError(400, problem);
      const user = await users.findById(userId);
      if (!user) throw new HttpError(401, INVALID_CREDENTIALS_MSG);
      if (!user.firstLogin) {
        if (currentPassword === undefined) throw new HttpError(400, CURRENT_PASSWORD_REQUIRED_MSG);
        if (!(await passwords.verify(user.passwordHash, currentPassword))) throw new HttpError(400, CURRENT_PASSWORD_WRONG_MSG);
      }
      await users.setPassword(userId, await hashPassword(newPassword), false);
      await sessions.lift(sessionId);
      await sessions.endAll(userId, 'password-change', sessionId);
    },

    async signOut(userId: number, sessionId: string): Promise<void> {
      await sessions.end(userId, sessionId, 'sign-out');
    },

    async listSessions(userId: number, currentId: string) {
      const rows = await sessions.listLive(userId, new Date(clock.nowMs()));
      return rows.map((row) => ({
        id: row.id,
        device: describeUserAgent(row.userAgent),
        user_agent: row.userAgent,
        address: row.address,
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        current: row.id === currentId,
      }));
    },

    /** Ends one of the user's sessions; 404 when the user has no such session still in use. */
    async endSession(userId: number, sessionId: string, reason: SessionEndReason = 'user'): Promise<void> {
      if (!(await sessions.end(userId, sessionId, reason))) throw new HttpError(404, SESSION_NOT_FOUND_MSG);
    },

    /** Ends every session of the user but `keep`; answers how many ended. */
    endOtherSessions(userId: number, keep: string): Promise<number> {
      return sessions.endAll(userId, 'user', keep);
    },

    /**
     * E-mails a temporary password, valid for one hour, to an existing active account. Says
     * nothing about whether the account exists; callers answer the same either way.
     */
    async sendTemporaryPassword(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user || !user.isActive) return;
      const temporary = generateTemporaryPassword();
      const expiresAt = new Date(clock.nowMs() + TEMPORARY_PASSWORD_TTL_SECONDS * 1000);
      await users.setTemporaryPassword(user.id, await hashPassword(temporary), expiresAt);
      await mailer.send({
        to: user.email,
        subject: 'Your Signalboard temporary password',
        text: [
          'Someone (we hope you) asked to reset the password of your Signalboard account.',
          '',
          `Temporary password: ${temporary}`,
          '',
          `It works for one hour, until ${expiresAt.toUTCString()}. Sign in with it and you will be asked`,
          'to choose a new password. Until you use it, your current password keeps working.',
          '',
          'If you did not ask for this, ignore this message.',
        ].join('\n'),
        secrets: [temporary],
      });
    },

    async deactivate(userId: number): Promise<void> {
      if ((await users.setActive(userId, false)) === 'last-admin') throw new HttpError(409, LAST_ADMIN_MSG);
      await sessions.endAll(userId, 'deactivated');
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
