/**
 * The two-factor tables (migration 0022_two_factor; docs/accounts.md "Two-factor sign-in"). Every
 * change that must happen once (a TOTP step used, a recovery code used, a challenge completed or
 * failed) is one conditional UPDATE, so two requests at once cannot both pass.
 */
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { installationSettings, loginChallenges, twoFactorRecoveryCodes, userTwoFactor, users } from '../../db/schema';

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;
export type ChallengeRow = typeof loginChallenges.$inferSelect & { email: string };

/** Challenges are deleted this long after they expire, at the user's next password sign-in. */
const KEEP_CHALLENGES_MS = 24 * 60 * 60 * 1000;

export function createTwoFactorRepo(db: Database) {
  return {
    async twoFactorRequired(): Promise<boolean> {
      const [row] = await db.select({ required: installationSettings.twoFactorRequired }).from(installationSettings);
      return row?.required ?? false;
    },
    async setTwoFactorRequired(required: boolean): Promise<void> {
      await db
        .insert(installationSettings)
        .values({ id: 1, twoFactorRequired: required })
        .onConflictDoUpdate({ target: installationSettings.id, set: { twoFactorRequired: required, updatedAt: sql`now()` } });
    },

    async find(userId: number): Promise<TwoFactorRow | undefined> {
      const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
      return row;
    },
    /** Keeps a new key waiting for its first code, replacing one not yet confirmed; false when two-factor is on. */
    async saveUnconfirmed(userId: number, sealedSecret: string, now: Date): Promise<boolean> {
      const saved = await db
        .insert(userTwoFactor)
        .values({ userId, secret: sealedSecret, createdAt: now })
        .onConflictDoUpdate({
          target: userTwoFactor.userId,
          set: { secret: sealedSecret, createdAt: now, lastUsedStep: null },
          setWhere: isNull(userTwoFactor.confirmedAt),
        })
        .returning({ userId: userTwoFactor.userId });
      return saved.length > 0;
    },
    /** Turns two-factor on with the key's first code (its step is used from then on); false when it was not waiting. */
    async confirm(userId: number, step: number, now: Date): Promise<boolean> {
      const confirmed = await db
        .update(userTwoFactor)
        .set({ confirmedAt: now, lastUsedStep: step })
        .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.confirmedAt)))
        .returning({ userId: userTwoFactor.userId });
      return confirmed.length > 0;
    },
    /** Records a sign-in with the code of `step`; false when that step or a later one was used already (a replay). */
    async useStep(userId: number, step: number): Promise<boolean> {
      const used = await db
        .update(userTwoFactor)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(userTwoFactor.userId, userId),
            isNotNull(userTwoFactor.confirmedAt),
            or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step)),
          ),
        )
        .returning({ userId: userTwoFactor.userId });
      return used.length > 0;
    },
    /** Turns two-factor off (the key and the recovery codes go); answers whether it was on. */
    async remove(userId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
        const removed = await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId)).returning({ confirmedAt: userTwoFactor.confirmedAt });
        return removed.some((row) => row.confirmedAt !== null);
      });
    },

    /** The user's recovery codes become these (by their hashes); the earlier ones stop working. */
    async replaceRecoveryCodes(userId: number, hashes: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
        await tx.insert(twoFactorRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
      });
    },
    /** Uses one recovery code; false when the user has no such unused code. */
    async useRecoveryCode(userId: number, codeHash: string, now: Date): Promise<boolean> {
      const used = await db
        .update(twoFactorRecoveryCodes)
        .set({ usedAt: now })
        .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, codeHash), isNull(twoFactorRecoveryCodes.usedAt)))
        .returning({ id: twoFactorRecoveryCodes.id });
      return used.length > 0;
    },
    async recoveryCodesLeft(userId: number): Promise<number> {
      const [row] = await db
        .select({ left: count() })
        .from(twoFactorRecoveryCodes)
        .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
      return row?.left ?? 0;
    },

    /** Records a challenge (by its hash) and deletes the user's challenges that expired over a day ago. */
    async createChallenge(input: { idHash: string; userId: number; firstLogin: boolean; userAgent: string; address: string; now: Date; expiresAt: Date }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .delete(loginChallenges)
          .where(and(eq(loginChallenges.userId, input.userId), lt(loginChallenges.expiresAt, new Date(input.now.getTime() - KEEP_CHALLENGES_MS))));
        await tx.insert(loginChallenges).values({ ...input, createdAt: input.now });
      });
    },
    async findChallenge(idHash: string): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select({ challenge: loginChallenges, email: users.email })
        .from(loginChallenges)
        .innerJoin(users, eq(users.id, loginChallenges.userId))
        .where(eq(loginChallenges.idHash, idHash));
      return row ? { ...row.challenge, email: row.email } : undefined;
    },
    /** Counts a wrong code; the `maxFailures`th locks the challenge. Answers the failures so far (undefined when it was no longer open). */
    async failChallenge(idHash: string, maxFailures: number, now: Date): Promise<number | undefined> {
      const [row] = await db
        .update(loginChallenges)
        .set({
          failures: sql`${loginChallenges.failures} + 1`,
          lockedAt: sql`case when ${loginChallenges.failures} + 1 >= ${maxFailures} then ${now.toISOString()}::timestamptz else null end`,
        })
        .where(and(eq(loginChallenges.idHash, idHash), isNull(loginChallenges.lockedAt), isNull(loginChallenges.usedAt)))
        .returning({ failures: loginChallenges.failures });
      return row?.failures;
    },
    /** Completes a challenge once: false when it was completed, locked or expired meanwhile. */
    async claimChallenge(idHash: string, now: Date): Promise<boolean> {
      const claimed = await db
        .update(loginChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(loginChallenges.idHash, idHash),
            isNull(loginChallenges.usedAt),
            isNull(loginChallenges.lockedAt),
            sql`${loginChallenges.expiresAt} > ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning({ idHash: loginChallenges.idHash });
      return claimed.length > 0;
    },
  };
}

export type TwoFactorRepo = ReturnType<typeof createTwoFactorRepo>;
