/**
 * Sign-in sessions (issue 28; docs/accounts.md). Each sign-in is a row; its id is the access token's
 * `sid`. Ending one sets `ended_at`, which a trigger announces (migration 0019_sessions) so every API
 * process drops its cached copy at once (session-users.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { UserRole } from '../../db/tables/users';

export type SessionRow = typeof sessions.$inferSelect;
export type SessionEndReason = 'sign-out' | 'user' | 'password-change' | 'admin' | 'deactivated' | 'password-reset';

/** What authenticating a request needs of a session and its user, in one indexed read. */
export interface SessionAuth {
  sessionId: string;
  userId: number;
  email: string;
  role: UserRole;
  isActive: boolean;
  ended: boolean;
  restricted: boolean;
  /** Signed in without two-factor while the installation requires it (docs/accounts.md). */
  needsTwoFactor: boolean;
}

/** Sessions ended or expired this long ago are deleted at the user's next sign-in. */
const KEEP_ENDED_MS = 30 * 24 * 60 * 60 * 1000;
const USER_AGENT_MAX = 300;

export const newSessionId = () => randomBytes(16).toString('base64url');

export function createSessionsRepo(db: Database) {
  /** Sessions of a user still usable at `now`: not ended, not expired. */
  const live = (userId: number, now: Date) => and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now));

  return {
    /** Records a sign-in and clears the user's sessions that ended over 30 days ago. */
    async create(input: { userId: number; expiresAt: Date; restricted: boolean; needsTwoFactor?: boolean; userAgent: string; address: string; now: Date }): Promise<string> {
      const id = newSessionId();
      const stale = new Date(input.now.getTime() - KEEP_ENDED_MS);
      await db.transaction(async (tx) => {
        await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, input.userId), or(lt(sessions.endedAt, stale), lt(sessions.expiresAt, stale))));
        await tx.insert(sessions).values({
          id,
          userId: input.userId,
          expiresAt: input.expiresAt,
          restricted: input.restricted,
          needsTwoFactor: input.needsTwoFactor ?? false,
          userAgent: input.userAgent.slice(0, USER_AGENT_MAX),
          address: input.address,
          createdAt: input.now,
          lastSeenAt: input.now,
        });
      });
      return id;
    },

    async findAuth(id: string): Promise<SessionAuth | undefined> {
      const [row] = await db
        .select({
          sessionId: sessions.id,
          userId: sessions.userId,
          email: users.email,
          role: users.role,
          isActive: users.isActive,
          endedAt: sessions.endedAt,
          restricted: sessions.restricted,
          needsTwoFactor: sessions.needsTwoFactor,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.id, id));
      if (!row) return undefined;
      const { endedAt, ...rest } = row;
      return { ...rest, ended: endedAt !== null };
    },

    /** Moves last_seen_at forward to `at` (never back: two processes' writes may land in either order). */
    async touch(id: string, at: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ lastSeenAt: sql`greatest(${sessions.lastSeenAt}, ${at.toISOString()}::timestamptz)` })
        .where(and(eq(sessions.id, id), isNull(sessions.endedAt)));
    },

    /** The user's usable sessions, most recently used first. */
    async listLive(userId: number, now: Date): Promise<SessionRow[]> {
      return db.select().from(sessions).where(live(userId, now)).orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
    },

    /** Ends one of the user's sessions; answers whether there was a live one to end. */
    async end(userId: number, id: string, reason: SessionEndReason): Promise<boolean> {
      const ended = await db
        .update(sessions)
        .set({ endedAt: sql`now()`, endedReason: reason })
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },

    /** Ends every session of the user but `keep` (none kept when undefined); answers how many ended. */
    async endAll(userId: number, reason: SessionEndReason, keep?: string): Promise<number> {
      const ended = await db
        .update(sessions)
        .set({ endedAt: sql`now()`, endedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), keep === undefined ? undefined : ne(sessions.id, keep)))
        .returning({ id: sessions.id });
      return ended.length;
    },

    /** The session's password is the user's own now: it may do everything. */
    async lift(id: string): Promise<void> {
      await db.update(sessions).set({ restricted: false }).where(and(eq(sessions.id, id), eq(sessions.restricted, true)));
    },

    /** Two-factor is on (or no longer required): the user's sessions waiting for it may do everything (all of them when `userId` is undefined). */
    async liftTwoFactor(userId?: number): Promise<void> {
      await db
        .update(sessions)
        .set({ needsTwoFactor: false })
        .where(and(eq(sessions.needsTwoFactor, true), userId === undefined ? undefined : eq(sessions.userId, userId)));
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
